import type { Firestore } from "@google-cloud/firestore";
import { type ChangeContext, operatorChange, recordChange } from "@usage-ingestion/audit";
import { getOrganization } from "@usage-ingestion/organizations";
import { loadCustomPricing, loadPlatformPricing } from "@usage-ingestion/prices";
import { mergeData } from "@usage-ingestion/reports";
import { type CostRecord, DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { revisionOf } from "./record-rows.ts";
import type { RecordsFeed } from "./records-feed.ts";
import { repricedRollupWrites, repriceRecord } from "./repricing.ts";

/**
 * Prices the organization's unpriced records again with today's catalog, platform list and custom prices, each as of
 * its own receive time. A record is rewritten only if it is still unpriced when the write happens, with its
 * revision bumped, and then published to `feed` (for BigQuery); with `dryRun`, nothing is written and the
 * result says what would be priced. A record re-priced but not published is listed in `unpublished`:
 * `records publish` sends it again.
 */
export async function repriceUnpriced(
  db: Firestore,
  organizationId: string,
  options: { dryRun?: boolean; now?: Date; feed?: RecordsFeed; change?: ChangeContext } = {},
) {
  const now = options.now ?? new Date();
  const change = options.change ?? operatorChange();
  await getOrganization(db, organizationId);
  const custom = await loadCustomPricing(db, organizationId);
  const platform = await loadPlatformPricing(db);
  const unpriced = await db
    .collection(DOCUMENT_PATHS.transactions(organizationId))
    .where("status", "==", "unpriced")
    .get();
  const priced: Array<{ message_id: string; model: string; cost_usd: string }> = [];
  const stillUnpriced: Array<{ message_id: string; reason: string }> = [];
  const unpublished: Array<{ message_id: string; received_at: string; error: string }> = [];
  for (const doc of unpriced.docs) {
    const fields = repriceRecord(doc.data() as CostRecord, custom, platform);
    if (fields.status !== "priced") {
      stillUnpriced.push({ message_id: doc.id, reason: fields.unpriced_reason ?? "unpriced" });
      continue;
    }
    const item = {
      message_id: doc.id,
      model: `${doc.get("provider")}/${doc.get("model")}`,
      cost_usd: fields.cost_usd ?? "",
    };
    if (options.dryRun) {
      priced.push(item);
      continue;
    }
    const changed = await db.runTransaction(async (tx) => {
      const fresh = await tx.get(doc.ref);
      if (fresh.get("status") !== "unpriced") return null;
      const stored = fresh.data() as CostRecord;
      const update: Partial<CostRecord> = {
        ...fields,
        repriced_at: now.toISOString(),
        revision: revisionOf(stored) + 1,
      };
      tx.update(doc.ref, update);
      // Each record is its own transaction, so each carries its own entry: no record re-priced without one.
      recordChange(tx, db, organizationId, change, {
        action: "record.repriced",
        target: { type: "record", id: doc.id },
        before: { status: stored.status, unpriced_reason: stored.unpriced_reason ?? null, cost_usd: null },
        after: { status: fields.status, cost_usd: fields.cost_usd ?? null },
      });
      for (const write of repricedRollupWrites(db, stored, fields)) {
        tx.set(write.ref, mergeData(write), { merge: true });
      }
      return { ...stored, ...update } as CostRecord;
    });
    if (!changed) continue;
    priced.push(item);
    try {
      await options.feed?.publish(changed);
    } catch (error) {
      unpublished.push({ message_id: doc.id, received_at: changed.received_at, error: (error as Error).message });
    }
  }
  return { examined: unpriced.size, priced, stillUnpriced, unpublished };
}
