import * as v from "valibot";
import type { MovingAlias } from "./aliases.ts";
import { type DataSource, type PriceData, PriceDataSchema } from "./price-data-schema.ts";
import { page, type TierRule, type TokenPrices, type UnitPrice, type VendorTable } from "./types.ts";

const sourceText = (source: DataSource) => (source.read === undefined ? source.page : page(source.page, source.read));

/** Drops the keys whose value is undefined, so a loaded row has exactly the keys its data gives. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined)) as T;
}

/**
 * One vendor's price data (`providers/<vendor>.json`), checked against the schema: a file that does not match
 * fails at load with its name and every problem's place, so a wrong price never reaches a bill.
 */
export function loadPriceData(file: string, data: unknown): VendorTable & { aliases: MovingAlias[] } {
  const parsed = v.safeParse(PriceDataSchema, data);
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? "(file)"}: ${issue.message}`);
    throw new Error(`price data ${file} does not match its schema: ${problems.join("; ")}`);
  }
  return fromPriceData(parsed.output);
}

function fromPriceData(data: PriceData): VendorTable & { aliases: MovingAlias[] } {
  const provider = data.provider;
  const tokens = data.tokens.map(
    (row): TokenPrices =>
      defined({
        provider,
        models: row.models,
        effectiveFrom: row.effective_from,
        until: row.until,
        hoursUtc: row.hours_utc,
        weekdaysUtc: row.weekdays_utc,
        exceptDatesUtc: row.except_dates_utc,
        tier: row.tier,
        source: sourceText(row.source),
        rates: row.prices && defined(row.prices),
        longContext: row.long_context && { above: row.long_context.above, rates: defined(row.long_context.prices) },
        longContextAbove: row.long_context_above,
        unknownAbove: row.unknown_above,
        unknownRates: row.unknown_prices?.map((unknown) => defined(unknown)),
        unpriced: row.unpriced,
      }),
  );
  const tiers = data.tiers.map(
    (row): TierRule =>
      defined({
        provider,
        tier: row.tier,
        models: row.models,
        effectiveFrom: row.effective_from,
        until: row.until,
        factor: row.factor,
        factors: row.factors && defined(row.factors),
        source: sourceText(row.source),
      }),
  );
  const units = data.units.map(
    (row): UnitPrice =>
      defined({
        provider,
        model: row.model,
        kind: row.kind as UnitPrice["kind"],
        quality: row.quality,
        maxSide: row.max_side,
        minSide: row.min_side,
        usd: row.usd,
        per: row.per,
        effectiveFrom: row.effective_from,
        source: sourceText(row.source),
      }),
  );
  const aliases = data.aliases.map(
    (alias): MovingAlias => ({
      provider,
      alias: alias.alias,
      source: sourceText(alias.source),
      changes: alias.changes.map((change) => ({
        from: change.from,
        model: change.model,
        source: sourceText(change.source),
      })),
    }),
  );
  return { tokens, tiers, units, aliases };
}
