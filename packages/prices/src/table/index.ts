import { decimal, type Provider } from "@usage-ingestion/shared";
import type { Rate, TieredRate, UnknownRate } from "../rate-types.ts";
import { matchRank } from "../resolve-model.ts";
import type { TierRule, TokenComponent, TokenPrices, TokenRates, UnitPrice } from "./types.ts";
import { VENDORS } from "./vendors.ts";

export const UNIT_PRICES: readonly UnitPrice[] = VENDORS.flatMap((vendor) => vendor.units);
export const TOKEN_PRICES: readonly TokenPrices[] = VENDORS.flatMap((vendor) => vendor.tokens);
export const TIER_RULES: readonly TierRule[] = VENDORS.flatMap((vendor) => vendor.tiers);

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
function inWindow(entry: Pick<TokenPrices, "hoursUtc" | "weekdaysUtc" | "exceptDatesUtc">, at: Date): boolean {
  const window = entry.hoursUtc;
  if (!window) return true;
  if (entry.weekdaysUtc && !entry.weekdaysUtc.includes(at.getUTCDay())) return false;
  if (entry.exceptDatesUtc?.includes(at.toISOString().slice(0, 10))) return false;
  const now = at.getUTCHours() * 60 + at.getUTCMinutes();
  const [start, end] = window.map(minutes) as [number, number];
  return start <= end ? now >= start && now < end : now >= start || now < end;
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
/** How a source names the entry's daily window: `, 01:00-04:00 UTC Mon-Fri except 2026-10-01`. */
function windowLabel(entry: TokenPrices): string {
  if (!entry.hoursUtc) return "";
  const days = entry.weekdaysUtc ? ` ${entry.weekdaysUtc.map((day) => DAYS[day]).join(",")}` : "";
  const except = entry.exceptDatesUtc?.length ? ` except ${entry.exceptDatesUtc.join(", ")}` : "";
  return `, ${entry.hoursUtc.join("-")} UTC${days}${except}`;
}

const inEffect = (entry: { effectiveFrom: string; until?: string }, at: Date) =>
  new Date(entry.effectiveFrom) <= at && (entry.until === undefined || at < new Date(entry.until));

/** The entries naming the model most specifically (see matchRank), oldest first. */
function mostSpecific<T extends { models: readonly string[]; effectiveFrom: string }>(
  entries: readonly T[],
  names: readonly string[],
): T[] {
  const ranked = entries.flatMap((entry) => {
    const ranks = entry.models.map((pattern) => matchRank(pattern, names)).filter((rank) => rank !== undefined);
    return ranks.length ? [{ entry, rank: Math.min(...ranks) }] : [];
  });
  const best = Math.min(...ranked.map(({ rank }) => rank));
  return ranked
    .filter(({ rank }) => rank === best)
    .map(({ entry }) => entry)
    .sort((a, b) => new Date(a.effectiveFrom).getTime() - new Date(b.effectiveFrom).getTime());
}

export type TableTokens =
  | { kind: "none" }
  | { kind: "unpriced"; reason: string }
  | {
      kind: "rates";
      rates: Partial<Record<TokenComponent, Rate | TieredRate>>;
      unknownAbove?: { above: number; reason: string };
      unknownRates?: UnknownRate[];
      /** Where the catalog's long-context tiers start instead (the vendor page's threshold). */
      longContextAbove?: { above: number; source: string };
    };

/**
 * Our token prices for the model at `at` (for `tier`, or the standard tier), newer entries over older
 * ones component by component; `none` when the table has none in effect.
 */
export function tableTokens(provider: Provider, names: readonly string[], at: Date, tier?: string): TableTokens {
  const candidates = TOKEN_PRICES.filter(
    (entry) => entry.provider === provider && entry.tier === tier && inEffect(entry, at) && inWindow(entry, at),
  );
  const entries = mostSpecific(candidates, names);
  const last = entries.at(-1);
  if (!last) return { kind: "none" };
  if (last.unpriced) return { kind: "unpriced", reason: last.unpriced };
  const rates: Partial<Record<TokenComponent, Rate | TieredRate>> = {};
  let unknownAbove: { above: number; reason: string } | undefined;
  let unknownRates: UnknownRate[] = [];
  let longContextAbove: { above: number; source: string } | undefined;
  for (const entry of entries) {
    if (entry.unknownAbove) unknownAbove = entry.unknownAbove;
    if (entry.longContextAbove !== undefined)
      longContextAbove = { above: entry.longContextAbove, source: entry.source };
    // A newer entry's rate for a component replaces an older unknown one, and a newer unknown an older rate.
    const known = new Set(Object.keys(entry.rates ?? {}));
    unknownRates = unknownRates.filter((unknown) => !known.has(unknown.component));
    for (const unknown of entry.unknownRates ?? []) {
      unknownRates = [
        ...unknownRates.filter((other) => other.above !== unknown.above || other.component !== unknown.component),
        unknown,
      ];
      if (unknown.above === undefined) delete rates[unknown.component];
    }
    const source = `${entry.source} (effective ${entry.effectiveFrom}${windowLabel(entry)})`;
    for (const [key, usd] of Object.entries(entry.rates ?? {}) as Array<[TokenComponent, string]>) {
      const base: Rate = { price: decimal(usd), per: 1_000_000, unit: "token", source };
      const long = entry.longContext?.rates[key];
      rates[key] = long
        ? {
            base,
            tiers: [
              {
                start: entry.longContext?.above ?? 0,
                rate: {
                  ...base,
                  price: decimal(long),
                  source: `${source} (above ${entry.longContext?.above} prompt tokens)`,
                },
              },
            ],
          }
        : base;
    }
  }
  return {
    kind: "rates",
    rates,
    ...(unknownAbove ? { unknownAbove } : {}),
    ...(unknownRates.length ? { unknownRates } : {}),
    ...(longContextAbove ? { longContextAbove } : {}),
  };
}

/** The multiplier rule for a service tier, for the model, at `at`. */
export function tierRule(provider: Provider, tier: string, names: readonly string[], at: Date): TierRule | undefined {
  const candidates = TIER_RULES.filter(
    (rule) => rule.provider === provider && rule.tier === tier && inEffect(rule, at),
  );
  return mostSpecific(candidates, names).at(-1);
}

export const tierFactor = (rule: TierRule, component: string): string =>
  (rule.factors as TokenRates | undefined)?.[component as TokenComponent] ?? rule.factor;

/**
 * Whether the table has an entry of the model's own (a family pattern such as `gemini-3*`, for tiers and
 * tools, never makes a model known).
 */
export function tableKnows(provider: Provider, names: readonly string[]): boolean {
  const named = (pattern: string) => !pattern.endsWith("*") && matchRank(pattern, names) !== undefined;
  return (
    UNIT_PRICES.some((price) => price.provider === provider && named(price.model)) ||
    TOKEN_PRICES.some((entry) => entry.provider === provider && entry.models.some(named))
  );
}

/** The tiers the table names for a vendor, for help texts and reasons. */
export function tiersOf(provider: Provider): string[] {
  const tiers = new Set<string>();
  for (const rule of TIER_RULES) if (rule.provider === provider) tiers.add(rule.tier);
  for (const entry of TOKEN_PRICES) if (entry.provider === provider && entry.tier) tiers.add(entry.tier);
  return [...tiers].sort();
}
