import { createHash } from "node:crypto";
import type { Firestore, Transaction } from "@google-cloud/firestore";
import { type ChangeContext, recordChange } from "@usage-ingestion/audit";
import { etagOf } from "@usage-ingestion/shared/server";
import type { CustomPrice } from "./custom-pricing.ts";

/**
 * A price's id: what makes it one price in the list (provider, model, tier, effective_from, the time read
 * as an instant), digested. Nothing is added to the stored prices (whose schema refuses unknown keys), every
 * price already stored has its id, and adding the same price again finds it by its id.
 */
export function priceId(price: Pick<CustomPrice, "provider" | "model" | "model_tier" | "effective_from">): string {
  const from = price.effective_from === undefined ? "" : new Date(price.effective_from).toISOString();
  const identity = [price.provider, price.model, price.model_tier ?? "", from].join("\u0000");
  return `prc_${createHash("sha256").update(identity).digest("hex").slice(0, 16)}`;
}

/** A price as the management API shows it: its id and version beside the fields `admin pricing add` takes. */
export const priceView = (price: CustomPrice) => ({ id: priceId(price), etag: etagOf(price), ...price });
export type PriceView = ReturnType<typeof priceView>;

/** One entry per price the list gains (`price.created`), changes (`price.updated`) or loses (`price.deleted`). */
export function recordPriceChanges(
  transaction: Transaction,
  db: Firestore,
  organizationId: string,
  change: ChangeContext,
  before: CustomPrice[],
  after: CustomPrice[],
  at: Date,
): void {
  const was = new Map(before.map((price) => [priceId(price), price]));
  const is = new Map(after.map((price) => [priceId(price), price]));
  for (const [id, price] of is) {
    const old = was.get(id);
    if (old && JSON.stringify(old) === JSON.stringify(price)) continue;
    const action = old ? "price.updated" : "price.created";
    recordChange(
      transaction,
      db,
      organizationId,
      change,
      { action, target: { type: "price", id }, before: old, after: price },
      at,
    );
  }
  for (const [id, price] of was) {
    if (is.has(id)) continue;
    recordChange(
      transaction,
      db,
      organizationId,
      change,
      { action: "price.deleted", target: { type: "price", id }, before: price },
      at,
    );
  }
}
