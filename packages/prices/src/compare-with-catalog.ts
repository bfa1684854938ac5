import { calcPrice, findProvider } from "@pydantic/genai-prices";
import { nanosToUsd, type Provider, validateTransaction } from "@usage-ingestion/shared";
import { CATALOG_PROVIDER_IDS, lookUpCatalog } from "./catalog.ts";
import { priceAt } from "./price-usage.ts";
import { TOKEN_PRICES } from "./table/index.ts";

export type VendorProvider = Exclude<Provider, "custom">;

/** The standard transactions both sources price: prompt tokens (cache reads among them) and output tokens. */
export const STANDARD_TRANSACTIONS = {
  short: { prompt: 10_000, cacheRead: 2_000, output: 1_000 },
  long: { prompt: 300_000, cacheRead: 20_000, output: 1_000 },
} as const;
export type StandardTransaction = keyof typeof STANDARD_TRANSACTIONS;

/** Besides the dates the table's rows take effect, every model is compared on this day. */
export const COMPARED_ON = "2026-11-28T12:00:00Z";

/** What one source bills a standard transaction: USD (nine places), or why it has no price. */
export type Billed = { usd: string } | { unpriced: string };

export interface PriceDifference {
  provider: VendorProvider;
  model: string;
  at: string;
  transaction: StandardTransaction;
  ours: Billed;
  catalog: Billed;
}

/** Bills an Anthropic-style provider counts cache reads outside `input_tokens`; the others inside. */
const CACHE_OUTSIDE_INPUT = new Set<VendorProvider>(["anthropic", "bedrock"]);

function ours(provider: VendorProvider, model: string, at: Date, kind: StandardTransaction): Billed {
  const { prompt, cacheRead, output } = STANDARD_TRANSACTIONS[kind];
  const metrics = CACHE_OUTSIDE_INPUT.has(provider)
    ? { input_tokens: prompt - cacheRead, cache_read_input_tokens: cacheRead, output_tokens: output }
    : { input_tokens: prompt, cached_tokens: cacheRead, output_tokens: output };
  const validated = validateTransaction({
    provider,
    model,
    usage: [{ type: "tokens", metrics: { ...metrics, total_tokens: prompt + output } }],
    context: { billable_customer_id: "prices-check" },
  });
  if (!validated.ok) return { unpriced: `invalid: ${JSON.stringify(validated.errors)}` };
  const pricing = priceAt(validated.transaction, at, null).pricing;
  return pricing.status === "priced" ? { usd: nanosToUsd(pricing.cost_nanos) } : { unpriced: pricing.unpriced_reason };
}

/** The catalog alone, as its own `calcPrice` bills the transaction; null when it does not price the model. */
function catalog(provider: VendorProvider, model: string, at: Date, kind: StandardTransaction): Billed | null {
  if (!lookUpCatalog(provider, model, at).result) return null;
  const { prompt, cacheRead, output } = STANDARD_TRANSACTIONS[kind];
  const usage = { input_tokens: prompt, cache_read_tokens: cacheRead, output_tokens: output };
  const found = calcPrice(usage, model, { providerId: CATALOG_PROVIDER_IDS[provider], timestamp: at });
  // A model the catalog bills nothing for these tokens (embeddings, transcription, free models) is no text
  // model the standard transactions fit.
  if (!found || !(found.input_price > 0) || !(found.output_price > 0)) return null;
  return { usd: nanosToUsd(BigInt(Math.round(found.total_price * 1e9))) };
}

/** How a bill is written in the reviewed list: the amount, or `unpriced`. */
export const shown = (billed: Billed) => ("usd" in billed ? billed.usd : "unpriced");

/** Two amounts agree when they are within two nanos (the catalog adds floats; we round each line once). */
function agree(a: Billed, b: Billed): boolean {
  if (!("usd" in a) || !("usd" in b)) return false;
  const nanos = (usd: string) => BigInt(usd.replace(".", ""));
  const gap = nanos(a.usd) - nanos(b.usd);
  return gap >= -2n && gap <= 2n;
}

/**
 * Every model our table prices (by its own name, standard tier) that the catalog also prices, on each date a
 * row for it takes effect and on COMPARED_ON, and every model of the catalog on COMPARED_ON, for each standard
 * transaction: where our bill and the catalog's differ (or only one of them bills).
 */
export function differencesFromCatalog(): { compared: number; differences: PriceDifference[] } {
  const dates = new Map<string, Set<string>>();
  for (const row of TOKEN_PRICES) {
    if (row.tier || row.provider === "custom") continue;
    for (const model of row.models) {
      if (model.includes("*")) continue;
      const key = `${row.provider}\u0000${model}`;
      const set = dates.get(key) ?? new Set([COMPARED_ON]);
      set.add(new Date(row.effectiveFrom).toISOString());
      dates.set(key, set);
    }
  }
  // And every model the catalog lists for our vendors, on COMPARED_ON (its own id, as the catalog names it).
  for (const provider of Object.keys(CATALOG_PROVIDER_IDS) as VendorProvider[]) {
    for (const model of findProvider({ providerId: CATALOG_PROVIDER_IDS[provider] })?.models ?? []) {
      const id = model.id.toLowerCase();
      // Fine-tune entries (`ft:gpt-4o`) and Bedrock's `regional.` prices name no id anyone sends.
      if (id.startsWith("ft:") || id.startsWith("regional.")) continue;
      const key = `${provider}\u0000${id}`;
      if (!dates.has(key)) dates.set(key, new Set([COMPARED_ON]));
    }
  }
  const differences: PriceDifference[] = [];
  let compared = 0;
  for (const [key, set] of [...dates].sort(([a], [b]) => a.localeCompare(b))) {
    const [provider, model] = key.split("\u0000") as [VendorProvider, string];
    for (const at of [...set].sort()) {
      for (const transaction of Object.keys(STANDARD_TRANSACTIONS) as StandardTransaction[]) {
        const theirs = catalog(provider, model, new Date(at), transaction);
        if (!theirs) continue;
        compared++;
        const mine = ours(provider, model, new Date(at), transaction);
        if (!agree(mine, theirs)) differences.push({ provider, model, at, transaction, ours: mine, catalog: theirs });
      }
    }
  }
  return { compared, differences };
}
