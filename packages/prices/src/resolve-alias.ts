import type { Provider } from "@usage-ingestion/shared";
import type { AliasChange } from "./table/aliases.ts";
import { MOVING_ALIASES } from "./table/vendors.ts";

/** The reason's first word for a moving alias we cannot date (reports group on it). */
export const ALIAS_UNRESOLVED = "alias_unresolved";

export type AliasResult =
  | { kind: "none" }
  | { kind: "model"; change: AliasChange }
  | { kind: "unresolved"; reason: string };

/**
 * A moving alias resolved to the model it pointed at `at`, from the dated list; `none` for an id that is no
 * moving alias. `id` is spelt as `resolveModel` gives it (lower case, no `models/` prefix).
 */
export function resolveAlias(provider: Exclude<Provider, "custom">, id: string, at: Date): AliasResult {
  const alias = MOVING_ALIASES.find((entry) => entry.provider === provider && entry.alias === id);
  if (!alias) return { kind: "none" };
  const change = alias.changes.filter((entry) => new Date(entry.from) <= at).at(-1);
  if (change) return { kind: "model", change };
  return {
    kind: "unresolved",
    reason: `${ALIAS_UNRESOLVED}: ${provider} model "${id}" is a moving alias (${alias.source}) and no dated change we read says which model it named at ${at.toISOString()}; send the model id it runs`,
  };
}
