import { describe, expect, it } from "vitest";
import { CostAggregate } from "./aggregate.ts";
import { fromRecord, fromRollup } from "./contribution.ts";
import { CellSums } from "./fold/cells.ts";
import { type CostRollupDocument, recordChange, zeroQuantities } from "./rollups.ts";
import { summaryCells } from "./summaries.ts";
import { type SummaryCell, toColumns } from "./summary-columns.ts";

/** The vendor's own cost beside ours (decision 0031): figures added up by hand from the cells below. */
const key = {
  provider: "xai" as const,
  model: "grok-4.7",
  model_tier: null,
  billable_customer_id: "c",
  dimensions: {},
};
const shard = (fields: Partial<CostRollupDocument>): CostRollupDocument => ({
  day: "2026-11-01",
  ...key,
  shard: 0,
  transactions: 1,
  unpriced_transactions: 0,
  conflict_transactions: 0,
  cost_nanos: 0,
  quantities: zeroQuantities(),
  ...fields,
});
/** A cell written before the vendor's figures existed: none of their fields. */
const oldCell = shard({ transactions: 4, cost_nanos: 20_000_000 });
/** Two priced records with the vendor's cost (0.0037756 + 0.004 USD) and one without (0.005 USD of ours). */
const newCell = shard({
  shard: 3,
  transactions: 3,
  cost_nanos: 15_000_000,
  provider_reported_transactions: 2,
  provider_reported_cost_picos: 7_775_600_000,
  cost_nanos_where_provider_reported: 10_000_000,
});

describe("the vendor's own cost in the reports", () => {
  it("counts only a priced record that carries one, with our cost of that same record", () => {
    const quantities = zeroQuantities;
    expect(
      recordChange({ status: "priced", cost_nanos: 5_000_000, provider_reported_cost_picos: 3_775_600_000 }, quantities)
        ?.reported,
    ).toEqual({ transactions: 1, picos: 3_775_600_000, nanos: 5_000_000 });
    expect(recordChange({ status: "priced", cost_nanos: 5_000_000 }, quantities)?.reported).toBeUndefined();
    expect(
      recordChange({ status: "unpriced", cost_nanos: null, provider_reported_cost_picos: 100 }, quantities)?.reported,
    ).toBeUndefined();
    expect(
      recordChange({ status: "duplicate", cost_nanos: 1, provider_reported_cost_picos: 100 }, quantities),
    ).toBeNull();
  });

  it("reads a cell without the fields as none, and sums beside cost_usd, never into it", () => {
    expect(fromRollup(oldCell)).toMatchObject({ reported_transactions: 0, reported_picos: 0n, reported_nanos: 0n });
    const aggregate = new CostAggregate([], {});
    aggregate.add(fromRollup(oldCell));
    aggregate.add(fromRollup(newCell));
    expect(aggregate.result().totals).toMatchObject({
      cost_usd: "0.035000000",
      transactions: 7,
      provider_reported_transactions: 2,
      provider_reported_cost_usd: "0.007775600000",
      provider_reported_cost_picos: "7775600000",
      cost_usd_where_provider_reported: "0.010000000",
      cost_nanos_where_provider_reported: "10000000",
      // 0.0077756 - 0.01
      provider_reported_difference_usd: "-0.002224400000",
    });
  });

  it("folds the figures into summaries and back, and reads summary rows of the older layout as none", () => {
    const sums = new CellSums();
    sums.addShard(oldCell);
    sums.addShard(newCell);
    // A record read where no summary stands: priced, with the vendor's cost of 0.0012345 USD.
    sums.addRecord({
      status: "priced",
      received_at: "2026-11-01T10:00:00.000Z",
      provider: "xai",
      model: "grok-4.7",
      model_tier: null,
      context: { billable_customer_id: "c" },
      dimensions: {},
      unpriced_reason: null,
      cost_nanos: 2_000_000,
      usage: [],
      provider_reported_cost_picos: 1_234_500_000,
    });
    const cells = sums.summaryCells();
    expect(cells).toHaveLength(1);
    expect(cells[0]?.[10]).toEqual([3, "9010100000", "12000000"]);
    const summary = {
      day: "2026-11-01",
      part: 0,
      parts: 1,
      fold_id: "f",
      read_time: "2026-11-02T00:05:00.000Z",
      cell_count: 1,
    };
    const [doc] = summaryCells(summary, toColumns(cells));
    expect(doc).toMatchObject({
      transactions: 8,
      cost_nanos: 37_000_000n,
      provider_reported_transactions: 3,
      provider_reported_cost_picos: 9_010_100_000n,
      cost_nanos_where_provider_reported: 12_000_000n,
    });
    const older: SummaryCell = ["xai", "grok-4.7", null, "c", {}, 4, 0, 0, "20000000", []];
    const columns = toColumns([older]);
    expect(columns.reported).toBeUndefined();
    expect(summaryCells({ ...summary, cells: JSON.stringify([older]) })[0]).not.toHaveProperty(
      "provider_reported_transactions",
    );
    const aggregate = new CostAggregate([], {});
    aggregate.addSummaryColumns(columns, "2026-11-01");
    expect(aggregate.result().totals).toMatchObject({
      provider_reported_transactions: 0,
      provider_reported_cost_usd: "0.000000000000",
      cost_usd_where_provider_reported: "0.000000000",
    });
  });

  it("counts a stored record as its cell does", () => {
    const record = {
      message_id: "m",
      request_id: "r",
      transaction_index: 0,
      organization_id: "o",
      received_at: "2026-11-01T10:00:00.000Z",
      processed_at: "2026-11-01T10:00:00.100Z",
      ...key,
      context: { billable_customer_id: "c" },
      usage: [],
      provider_usage_raw: null,
      status: "priced" as const,
      unpriced_reason: null,
      cost_usd: "0.002000000",
      cost_nanos: 2_000_000,
      line_items: [],
      pricing: { source: null, version: null, model: null },
      currency: "USD" as const,
      queue_schema_version: 1,
      transaction_id: null,
      duplicate_of: null,
      provider_reported_cost: "0.001234500000",
      provider_reported_cost_picos: 1_234_500_000,
    };
    expect(fromRecord(record)).toMatchObject({
      reported_transactions: 1,
      reported_picos: 1_234_500_000n,
      reported_nanos: 2_000_000n,
    });
    const { provider_reported_cost: _text, provider_reported_cost_picos: _picos, ...before } = record;
    expect(fromRecord(before)).toMatchObject({ reported_transactions: 0, reported_picos: 0n });
  });
});
