import type { Provider } from "@usage-ingestion/shared";

/** One move of a moving alias: from this instant it named `model`, as `source` says. */
export interface AliasChange {
  from: string;
  model: string;
  source: string;
}

/**
 * A vendor's moving alias: an id that names whichever model the vendor points it at, so a call is priced as
 * the model it pointed at when received. Before its first dated change (or with none), it is unresolved.
 */
export interface MovingAlias {
  provider: Exclude<Provider, "custom">;
  /** The alias as `resolveModel` spells ids (lower case, no `models/` prefix). */
  alias: string;
  /** Where the vendor says the alias moves. */
  source: string;
  /** Its dated moves, oldest first; empty when no page we read dates any. */
  changes: readonly AliasChange[];
}
