import { ReportCeiling, readPages } from "./report-ceiling";
import type { ReportSource } from "./report-source.ts";
import { unpricedReasonOf } from "./rollups.ts";
import { planRange, type TimeRange } from "./time-range.ts";

export interface UnpricedEntry {
  provider: string;
  model: string;
  model_tier: string | null;
  reason: string;
  transactions: number;
}

export interface UnpricedReport {
  from: string;
  to: string;
  unpriced: UnpricedEntry[];
  total_transactions: number;
}

/**
 * Which models and reasons left transactions unpriced in a range, most transactions first: what a
 * customer adds prices for before `admin reprice`. Whole days from the roll-ups, edges from the records.
 */
export async function unpricedReport(
  source: ReportSource,
  organizationId: string,
  range: TimeRange,
  ceiling: ReportCeiling = new ReportCeiling(),
): Promise<UnpricedReport> {
  return ceiling.around(() => counted(source, organizationId, range, ceiling));
}

async function counted(
  source: ReportSource,
  organizationId: string,
  range: TimeRange,
  ceiling: ReportCeiling,
): Promise<UnpricedReport> {
  const plan = planRange(range);
  const entries = new Map<string, UnpricedEntry>();
  const add = (entry: Omit<UnpricedEntry, "transactions">, count: number) => {
    const id = JSON.stringify([entry.provider, entry.model, entry.model_tier, entry.reason]);
    let found = entries.get(id);
    if (!found) {
      ceiling.newGroup();
      found = { ...entry, transactions: 0 };
      entries.set(id, found);
    }
    found.transactions += count;
  };
  if (plan.wholeDays) {
    const { first, end } = plan.wholeDays;
    await readPages(source.unpricedRollups(organizationId, first, end), ceiling, (cell) => {
      const { provider, model, model_tier, reason } = cell;
      add({ provider, model, model_tier: model_tier ?? null, reason }, Number(cell.transactions));
    });
  }
  for (const edge of plan.edges) {
    await readPages(source.records(organizationId, edge), ceiling, (record) => {
      if (record.status !== "unpriced") return;
      const { provider, model, model_tier } = record;
      add({ provider, model, model_tier, reason: unpricedReasonOf(record) }, 1);
    });
  }
  const unpriced = [...entries.values()]
    .filter((entry) => entry.transactions > 0)
    .sort(
      (a, b) => b.transactions - a.transactions || a.model.localeCompare(b.model) || a.reason.localeCompare(b.reason),
    );
  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    unpriced,
    total_transactions: unpriced.reduce((sum, entry) => sum + entry.transactions, 0),
  };
}
