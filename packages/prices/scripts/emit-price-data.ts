/**
 * One-off: writes our price table, until now TypeScript (packages/prices/src/table/<vendor>.ts), as one data file
 * per vendor (providers/<vendor>.json) and the JSON Schema they follow, and checks that each file loads back to
 * exactly the rows it was written from. `npx tsx packages/prices/scripts/emit-price-data.ts`
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { toJsonSchema } from "@valibot/to-json-schema";
import { MOVING_ALIASES } from "../src/table/aliases-table.ts";
import { ANTHROPIC } from "../src/table/anthropic.ts";
import { BEDROCK } from "../src/table/bedrock.ts";
import { DEEPSEEK } from "../src/table/deepseek.ts";
import { GEMINI } from "../src/table/gemini.ts";
import { loadPriceData } from "../src/table/load-price-data.ts";
import { OPENAI } from "../src/table/openai.ts";
import { PriceDataSchema } from "../src/table/price-data-schema.ts";
import { page, type VendorTable } from "../src/table/types.ts";
import { XAI } from "../src/table/xai.ts";

const DIR = join(dirname(fileURLToPath(import.meta.url)), "../src/table/providers");

/** A source written by `page(url, read)` back into its page and reading. */
function source(text: string) {
  const at = text.lastIndexOf(" (");
  // A page with no reading: only on a row that says no copy was read.
  if (at === -1 || !text.endsWith(")")) return { page: text };
  const inner = text.slice(at + 2, -1);
  const read = /^read (\d{4}-\d{2}-\d{2})$/.exec(inner)?.[1] ?? inner;
  const parsed = { page: text.slice(0, at), read };
  if (page(parsed.page, parsed.read) !== text) throw new Error(`source does not round-trip: ${text}`);
  return parsed;
}

const without = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined));

function toData(provider: string, table: VendorTable) {
  for (const row of [...table.tokens, ...table.tiers, ...table.units])
    if (row.provider !== provider) throw new Error(`${provider} table holds a ${row.provider} row`);
  return {
    $schema: "./.schema.json",
    provider,
    aliases: MOVING_ALIASES.filter((alias) => alias.provider === provider).map((alias) => ({
      alias: alias.alias,
      source: source(alias.source),
      changes: alias.changes.map((change) => ({ ...change, source: source(change.source) })),
    })),
    tokens: table.tokens.map((row) =>
      without({
        models: [...row.models],
        effective_from: row.effectiveFrom,
        until: row.until,
        hours_utc: row.hoursUtc && [...row.hoursUtc],
        weekdays_utc: row.weekdaysUtc && [...row.weekdaysUtc],
        except_dates_utc: row.exceptDatesUtc && [...row.exceptDatesUtc],
        tier: row.tier,
        source: source(row.source),
        prices: row.rates,
        long_context: row.longContext && { above: row.longContext.above, prices: row.longContext.rates },
        long_context_above: row.longContextAbove,
        unknown_above: row.unknownAbove,
        unknown_prices: row.unknownRates?.map((unknown) => ({ ...unknown })),
        unpriced: row.unpriced,
      }),
    ),
    tiers: table.tiers.map((row) =>
      without({
        tier: row.tier,
        models: [...row.models],
        effective_from: row.effectiveFrom,
        until: row.until,
        factor: row.factor,
        factors: row.factors,
        source: source(row.source),
      }),
    ),
    units: table.units.map((row) =>
      without({
        model: row.model,
        kind: row.kind,
        quality: row.quality,
        max_side: row.maxSide,
        min_side: row.minSide,
        usd: row.usd,
        per: row.per,
        effective_from: row.effectiveFrom,
        source: source(row.source),
      }),
    ),
  };
}

const plain = (value: unknown) => JSON.parse(JSON.stringify(value));
const VENDORS = {
  openai: OPENAI,
  anthropic: ANTHROPIC,
  bedrock: BEDROCK,
  gemini: GEMINI,
  xai: XAI,
  deepseek: DEEPSEEK,
};
for (const [provider, table] of Object.entries(VENDORS)) {
  const data = toData(provider, table);
  const loaded = loadPriceData(provider, plain(data));
  const aliases = MOVING_ALIASES.filter((alias) => alias.provider === provider);
  if (!isDeepStrictEqual(plain(loaded), plain({ ...table, aliases })))
    throw new Error(`${provider}: the data file does not load back to the table it was written from`);
  writeFileSync(join(DIR, `${provider}.json`), `${JSON.stringify(data, null, 2)}\n`);
  console.log(
    `wrote ${provider}.json: ${data.tokens.length} token rows, ${data.tiers.length} tiers, ${data.units.length} units`,
  );
}
writeFileSync(join(DIR, ".schema.json"), `${JSON.stringify(toJsonSchema(PriceDataSchema), null, 2)}\n`);
console.log("wrote .schema.json");
