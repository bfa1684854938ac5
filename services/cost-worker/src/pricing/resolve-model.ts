import type { Provider } from "@usage-ingestion/shared";

export type ModelNames =
  | {
      ok: true;
      /** The id for the catalog, which also tells Bedrock's global and regional profiles apart. */
      catalogId: string;
      /** The id and the ids it may stand for, most specific first: what our table is matched on. */
      names: string[];
    }
  | { ok: false; reason: string };

const BEDROCK_REGION = /^(us|eu|apac|au|ca|jp|us-gov|global)\./;

/** Suffixes a vendor adds to a priced model's id, stripped one at a time, in this order. */
const SUFFIXES: RegExp[] = [
  /-latest$/, // `claude-3-5-haiku-latest`, `grok-4.3-latest`
  /-(non-)?reasoning$/, // xAI: `grok-4.20-0309-reasoning`
  /-\d{4}-\d{2}-\d{2}$/, // OpenAI snapshots: `gpt-4o-2024-08-06`
  /-\d{8}$/, // Anthropic snapshots: `claude-sonnet-4-20250514`
  /-\d{4}$/, // xAI: `grok-4.20-0309`
  /-\d{3}$/, // Google versions: `imagen-4.0-generate-001`
];

/**
 * Model ids as the vendors' APIs and SDKs return them: any case, Gemini's `models/` resource prefix,
 * Vertex's `@` before a date, Claude Code's `[1m]` marker, Bedrock ARNs and region prefixes (kept for the
 * catalog, which prices global and regional profiles apart), and the suffixes above.
 */
export function resolveModel(provider: Provider, model: string): ModelNames {
  let id = model
    .trim()
    .toLowerCase()
    .replace(/^models\//, "")
    .replace(/\[1m\]$/, "")
    .replace(/@(\d{8})$/, "-$1");
  if (provider === "bedrock" && id.startsWith("arn:")) {
    if (id.includes(":application-inference-profile/")) {
      return {
        ok: false,
        reason: `bedrock model "${model}" is an application inference profile, whose model cannot be told from its id; send the model id it runs`,
      };
    }
    id = id.slice(id.lastIndexOf("/") + 1);
  }
  const catalogId = id;
  if (provider === "bedrock") id = id.replace(BEDROCK_REGION, "");
  const names = [id];
  for (const suffix of SUFFIXES) {
    const last = names[names.length - 1] as string;
    const stripped = last.replace(suffix, "");
    if (stripped !== last && stripped.length > 0) names.push(stripped);
  }
  return { ok: true, catalogId, names };
}

/** How well a table entry's model pattern names the model: lower is more specific; undefined, not at all. */
export function matchRank(pattern: string, names: readonly string[]): number | undefined {
  if (pattern === "*") return 1000;
  if (pattern.endsWith("*")) {
    const prefix = pattern.slice(0, -1);
    const index = names.findIndex((name) => name.startsWith(prefix));
    return index === -1 ? undefined : 500 + index;
  }
  const index = names.indexOf(pattern);
  return index === -1 ? undefined : index;
}
