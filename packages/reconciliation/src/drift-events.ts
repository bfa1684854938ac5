import type { Firestore } from "@google-cloud/firestore";
import { DOCUMENT_PATHS, nanosToUsd } from "@usage-ingestion/shared";
import { isAlreadyExists } from "@usage-ingestion/shared/server";
import type { OutboxEvent } from "@usage-ingestion/webhooks";
import type { Comparison, Tolerance } from "./compare.ts";
import { DAY_MS } from "./vendor-days.ts";
import type { ConnectionVendor } from "./vendors.ts";

/** Rows named in one event, the largest differences first. */
const MAX_ROWS_IN_EVENT = 20;
/**
 * How long after a day ends it is judged: the vendors' cost reports fill in during the following hours,
 * and a day is alerted once, so a day still filling in must not be. OpenAI's and Anthropic's by the next
 * morning; Google's billing export keeps filling for a day or more and Cost Explorer refreshes about once
 * a day (docs/reconciliation.md), so theirs wait two days.
 */
export const DRIFT_SETTLE_MS: Record<ConnectionVendor, number> = {
  openai: 6 * 3_600_000,
  anthropic: 6 * 3_600_000,
  gemini: 48 * 3_600_000,
  bedrock: 48 * 3_600_000,
};

/** How far a day's totals may be apart before it is alerted: the organization's setting (default 1% and $0.01). */
export type DriftThreshold = Tolerance;

const abs = (n: bigint) => (n < 0n ? -n : n);

/**
 * The `reconciliation.drift` events of one vendor's comparisons: one per day whose total differs from the
 * vendor's by more than the threshold (a share of the vendor's total, or an amount, whichever is larger).
 * A day whose cost report has not come in yet, or that ended less than its vendor's DRIFT_SETTLE_MS ago, is not judged.
 * The id is the vendor's and the day's, so a day is alerted once however often it is read again.
 */
export function driftEvents(
  organizationId: string,
  vendor: ConnectionVendor,
  comparisons: readonly Comparison[],
  threshold: DriftThreshold,
  now: Date,
): OutboxEvent[] {
  const days = new Map<string, Comparison[]>();
  for (const row of comparisons) days.set(row.day, [...(days.get(row.day) ?? []), row]);
  const events: OutboxEvent[] = [];
  for (const [day, rows] of days) {
    if (Date.parse(`${day}T00:00:00Z`) + DAY_MS + DRIFT_SETTLE_MS[vendor] > now.getTime()) continue;
    if (rows.some((row) => row.vendor.cost_nanos === null && row.class !== "ours_only")) continue;
    const ours = rows.reduce((sum, row) => sum + row.ours.cost_nanos, 0n);
    const reported = rows.reduce((sum, row) => sum + (row.vendor.cost_nanos ?? 0n), 0n);
    const difference = reported - ours;
    const allowed = (abs(reported) * BigInt(threshold.ppm)) / 1_000_000n;
    if (abs(difference) <= allowed || abs(difference) <= threshold.nanos) continue;
    const named = rows
      .filter((row) => row.class !== "matched")
      .sort((a, b) => (abs(b.difference.cost_nanos) > abs(a.difference.cost_nanos) ? 1 : -1))
      .slice(0, MAX_ROWS_IN_EVENT);
    events.push({
      id: `reconciliation_${vendor}_${day}`,
      type: "reconciliation.drift",
      created_at: now.toISOString(),
      data: {
        organization_id: organizationId,
        vendor,
        day,
        ours_usd: nanosToUsd(ours),
        reported_usd: nanosToUsd(reported),
        difference_usd: nanosToUsd(difference),
        threshold: { percent: threshold.ppm / 10_000, usd: nanosToUsd(threshold.nanos) },
        rows: named.map((row) => ({
          model: row.model,
          // Split by a mapped id: the vendor's id (null for usage without one).
          ...(row.split === null ? {} : { split: row.split }),
          class: row.class,
          difference_usd: nanosToUsd(row.difference.cost_nanos),
        })),
      },
      dispatched_at: null,
    });
  }
  return events;
}

/** Puts each event in the outbox unless it is there already; the days newly alerted. */
export async function recordDrift(db: Firestore, organizationId: string, events: readonly OutboxEvent[]) {
  const created: string[] = [];
  for (const event of events) {
    try {
      await db.doc(DOCUMENT_PATHS.event(organizationId, event.id)).create(event);
      // The id ends with the day (`reconciliation_{vendor}_{YYYY-MM-DD}`).
      created.push(event.id.slice(-10));
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
    }
  }
  return created;
}
