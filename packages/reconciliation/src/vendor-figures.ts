/**
 * One vendor's own figures for one UTC day and model, in the vendor's own token convention, which is also
 * the one our records keep (docs/reconciliation.md): OpenAI's `input_tokens` include the cached ones,
 * Anthropic's exclude cache reads and writes.
 */
export interface TokenCounts {
  input_tokens: number;
  output_tokens: number;
  /** Cache reads. */
  cached_tokens: number;
  /** Cache writes (Anthropic's five-minute and one-hour ones together). */
  cache_creation_input_tokens: number;
}
export const TOKEN_KINDS = ["input_tokens", "output_tokens", "cached_tokens", "cache_creation_input_tokens"] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** What a vendor bills separately for a model's tokens, in one vocabulary for every vendor. */
export const PRICE_COMPONENTS = ["input", "cache_read", "cache_write", "output"] as const;
export type PriceComponent = (typeof PRICE_COMPONENTS)[number];

export interface VendorFigure {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  /** The model as the vendor names it; `NOT_PER_MODEL` for costs the vendor names no model for. */
  model: string;
  tokens: TokenCounts;
  /** The vendor's cost in nano-USD, or null when its cost report had nothing for this day and model. */
  cost_nanos: bigint | null;
  /** The cost per component, where the vendor's cost report breaks it down. */
  components: Partial<Record<PriceComponent, bigint>>;
  /** Read split by a grouping id (ReadRequest.split): the vendor's id (null: none); absent, not split. */
  split?: string | null;
}

/** The model of costs a vendor reports without one (server tools, storage): compared as a whole. */
export const NOT_PER_MODEL = "(not per model)";

export const zeroTokens = (): TokenCounts => ({
  input_tokens: 0,
  output_tokens: 0,
  cached_tokens: 0,
  cache_creation_input_tokens: 0,
});

/** Orders figures and rows by day, then model, then split value (none first). */
export function byDayModelSplit(
  a: { day: string; model: string; split?: string | null },
  b: { day: string; model: string; split?: string | null },
): number {
  if (a.day !== b.day) return a.day < b.day ? -1 : 1;
  if (a.model !== b.model) return a.model < b.model ? -1 : 1;
  const [x, y] = [a.split ?? null, b.split ?? null];
  if (x === y) return 0;
  if (x === null) return -1;
  if (y === null) return 1;
  return x < y ? -1 : 1;
}

/**
 * Folds figures of the same day and model (pages, buckets and cost lines) into one each, in day then model
 * order. A sheet made with `split` keeps one figure per split value too (the vendor's id, null for none).
 */
export class FigureSheet {
  private readonly byKey = new Map<string, VendorFigure>();

  constructor(private readonly split = false) {}

  at(day: string, model: string, split: string | null = null): VendorFigure {
    const key = JSON.stringify([day, model, this.split ? split : null]);
    let figure = this.byKey.get(key);
    if (!figure) {
      figure = { day, model, tokens: zeroTokens(), cost_nanos: null, components: {} };
      if (this.split) figure.split = split;
      this.byKey.set(key, figure);
    }
    return figure;
  }

  addTokens(day: string, model: string, tokens: Partial<TokenCounts>, split: string | null = null) {
    const figure = this.at(day, model, split);
    for (const kind of TOKEN_KINDS) figure.tokens[kind] += tokens[kind] ?? 0;
  }

  addCost(day: string, model: string, nanos: bigint, component?: PriceComponent, split: string | null = null) {
    const figure = this.at(day, model, split);
    figure.cost_nanos = (figure.cost_nanos ?? 0n) + nanos;
    if (component) figure.components[component] = (figure.components[component] ?? 0n) + nanos;
  }

  figures(): VendorFigure[] {
    return [...this.byKey.values()].sort(byDayModelSplit);
  }
}
