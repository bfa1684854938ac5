import type { Firestore } from "@google-cloud/firestore";
import { type CostRecord, DOCUMENT_PATHS, type Provider } from "@usage-ingestion/shared";
import type { OurRate } from "./compare.ts";
import { DAY_MS } from "./vendor-days.ts";
import type { PriceComponent } from "./vendor-figures.ts";

/**
 * Our token line items (packages/prices, price-components.ts) by the vendors' one vocabulary. One-hour
 * cache writes have a rate of their own, which the vendors' daily cost lines do not split from the rest.
 */
const LINE_COMPONENTS: Record<string, PriceComponent> = {
  input: "input",
  cache_read: "cache_read",
  cache_write: "cache_write",
  output: "output",
};
/** Records looked at for one day and model: the latest priced one of them gives the rates. */
const SAMPLE = 20;

/**
 * The rates we priced one day's model at, from the line items of a priced record of that day (the last
 * received): what a price mismatch is compared against. Reads by (model, received_at), the records'
 * listing index; none found, no rates (the mismatch is then not named).
 */
export async function ourRates(
  db: Firestore,
  organizationId: string,
  provider: Provider,
  day: string,
  models: readonly string[],
): Promise<Partial<Record<PriceComponent, OurRate>>> {
  const from = new Date(`${day}T00:00:00Z`);
  const to = new Date(from.getTime() + DAY_MS);
  for (const model of models.slice(0, 4)) {
    const snap = await db
      .collection(DOCUMENT_PATHS.transactions(organizationId))
      .where("model", "==", model)
      .where("received_at", ">=", from.toISOString())
      .where("received_at", "<", to.toISOString())
      .orderBy("received_at", "desc")
      .limit(SAMPLE)
      .get();
    for (const doc of snap.docs) {
      const record = doc.data() as CostRecord;
      if (record.provider !== provider || record.status !== "priced") continue;
      const rates: Partial<Record<PriceComponent, OurRate>> = {};
      for (const item of record.line_items) {
        const component = item.usage_type === "tokens" ? LINE_COMPONENTS[item.component] : undefined;
        // A client reading integers as BigInt gives `unit_price_per` back as one.
        if (component && !rates[component])
          rates[component] = { usd: item.unit_price_usd, per: Number(item.unit_price_per) };
      }
      if (Object.keys(rates).length > 0) return rates;
    }
  }
  return {};
}
