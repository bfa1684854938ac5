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

/**
 * The suffixes each vendor adds to a model's own id for the same model (dated snapshots, documented
 * aliases), stripped from the end one at a time. Nothing else is ever stripped: `claude-sonnet-5-5` is not
 * `claude-sonnet-5`, and `-pro`, `-mini` or `.5` name another model.
 */
export const VENDOR_SUFFIXES: Record<Exclude<Provider, "custom">, readonly RegExp[]> = {
  openai: [/-\d{4}-\d{2}-\d{2}$/], // `gpt-4o-2024-08-06`
  anthropic: [/-latest$/, /-\d{8}$/], // `claude-3-5-haiku-latest`, `claude-sonnet-4-20250514`
  // Bedrock ids carry their date and version inside (`anthropic.claude-sonnet-4-20250514-v1:0`): only the
  // catalog check below reads them as a snapshot of a catalog entry.
  bedrock: [],
  // `gemini-2.0-flash-001`, `gemini-2.5-flash-lite-preview-09-2025`
  gemini: [/-latest$/, /-\d{3}$/, /-\d{2}-\d{4}$/],
  xai: [/-latest$/, /-(non-)?reasoning$/, /-\d{4}$/], // `grok-4.20-0309-reasoning`
  deepseek: [],
};

/** What may follow a Bedrock entry's name in an id: its date and its version (`-20250514-v1:0`, `-v1` + `:0`). */
const BEDROCK_TAIL = [/-v\d+(:\d+)?$/, /:\d+$/, /-\d{8}$/];

/** Strips the vendor's suffixes from the end of `id` one at a time: the id and each shorter form. */
export function withoutSuffixes(id: string, suffixes: readonly RegExp[]): string[] {
  const forms = [id];
  for (;;) {
    const last = forms[forms.length - 1] as string;
    const stripped = suffixes.map((suffix) => last.replace(suffix, "")).find((form) => form !== last);
    if (stripped === undefined || stripped.length === 0) return forms;
    forms.push(stripped);
  }
}

/** Whether `tail` is nothing but the vendor's suffixes: what may follow a name for the same model. */
export function onlySuffixes(provider: Exclude<Provider, "custom">, tail: string): boolean {
  const suffixes = provider === "bedrock" ? BEDROCK_TAIL : VENDOR_SUFFIXES[provider];
  return withoutSuffixes(`x${tail}`, suffixes).at(-1) === "x";
}

/**
 * Model ids as the vendors' APIs and SDKs return them: any case, Gemini's `models/` resource prefix,
 * Vertex's `@` before a date, Claude Code's `[1m]` marker, Bedrock ARNs and region prefixes (kept for the
 * catalog, which prices global and regional profiles apart), and each vendor's own suffixes (above).
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
  const names = provider === "custom" ? [id] : withoutSuffixes(id, VENDOR_SUFFIXES[provider]);
  if (provider === "openai") names.push(...fineTunedBases(id));
  return { ok: true, catalogId, names };
}

/**
 * An OpenAI fine-tuned model (`ft:gpt-4.1-2025-04-14:acme:support:a1b2`) is priced as fine-tunes of its base
 * model: `ft:` + the base snapshot, then `ft:` + the base model without its date (`ft:gpt-4.1`).
 */
function fineTunedBases(id: string): string[] {
  const base = /^ft:([^:]+):/.exec(id)?.[1];
  if (!base) return [];
  return withoutSuffixes(base, VENDOR_SUFFIXES.openai).map((form) => `ft:${form}`);
}

/**
 * How well a table entry's model pattern names the model: lower is more specific; undefined, not at all.
 * A pattern ending in `*` (a tier or tool price for a family, never a model's own price) names every id
 * it starts.
 */
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
