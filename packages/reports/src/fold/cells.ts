import type { UsageEntry } from "@usage-ingestion/shared";
import {
  type CostRollupDocument,
  type CountedRecord,
  cellText,
  countedMoney,
  plainCount,
  plainNumbers,
  type Quantities,
  quantitiesOf,
  ROLLUP_QUANTITIES,
  type RollupKey,
  recordChange,
  rollupKeyOf,
  wholeNanos,
} from "../rollups.ts";
import { type SummaryCell, toColumns } from "../summary-columns.ts";
import { deflateCells } from "../summary-parts.ts";

/** A part's compressed cells, at most: well inside Firestore's 1 MiB a document, with room for the other fields. */
export const MAX_PART_BYTES = 800_000;
/** A part's cells as JSON rows, at most: what a reader inflates and parses at once (~50,000 cells). */
export const MAX_PART_RAW_BYTES = 4_000_000;

interface Counters {
  transactions: number;
  unpriced: number;
  conflicts: number;
  nanos: bigint;
  quantities: Partial<Quantities>;
  /** The like-with-like figures (decision 0031): records, the vendor's pico-USD, our nano-USD. */
  reported: number;
  reportedPicos: bigint;
  reportedNanos: bigint;
}

/** Cells summed from roll-up shards or from records, by the counting rules every reader shares. */
export class CellSums {
  private readonly cells = new Map<string, { key: Omit<RollupKey, "day">; sums: Counters }>();

  private add(key: Omit<RollupKey, "day">, change: Counters) {
    const id = cellText(key);
    let entry = this.cells.get(id);
    if (!entry) {
      entry = {
        key,
        sums: {
          transactions: 0,
          unpriced: 0,
          conflicts: 0,
          nanos: 0n,
          quantities: {},
          reported: 0,
          reportedPicos: 0n,
          reportedNanos: 0n,
        },
      };
      this.cells.set(id, entry);
    }
    entry.sums.transactions += change.transactions;
    entry.sums.unpriced += change.unpriced;
    entry.sums.conflicts += change.conflicts;
    entry.sums.nanos += change.nanos;
    entry.sums.reported += change.reported;
    entry.sums.reportedPicos += change.reportedPicos;
    entry.sums.reportedNanos += change.reportedNanos;
    for (const name of ROLLUP_QUANTITIES) {
      entry.sums.quantities[name] = (entry.sums.quantities[name] ?? 0) + (change.quantities[name] ?? 0);
    }
  }

  /** One roll-up shard's counters. */
  addShard(doc: CostRollupDocument): void {
    const quantities: Partial<Quantities> = {};
    for (const name of ROLLUP_QUANTITIES) quantities[name] = plainCount(doc.quantities?.[name]);
    this.add(
      {
        provider: doc.provider,
        model: doc.model,
        model_tier: doc.model_tier ?? null,
        billable_customer_id: doc.billable_customer_id,
        dimensions: doc.dimensions ?? {},
      },
      {
        transactions: plainCount(doc.transactions),
        unpriced: plainCount(doc.unpriced_transactions),
        conflicts: plainCount(doc.conflict_transactions),
        nanos: wholeNanos(doc.cost_nanos),
        quantities,
        // Absent on cells no record with the vendor's own cost reached: 0.
        reported: plainCount(doc.provider_reported_transactions),
        reportedPicos: wholeNanos(doc.provider_reported_cost_picos),
        reportedNanos: wholeNanos(doc.cost_nanos_where_provider_reported),
      },
    );
  }

  /** One cell of another summary (a day's, folded into its month's). */
  addSummaryCell([
    provider,
    model,
    model_tier,
    billable_customer_id,
    dimensions,
    transactions,
    unpriced,
    conflicts,
    nanos,
    q,
    reported,
  ]: SummaryCell): void {
    const quantities: Partial<Quantities> = {};
    ROLLUP_QUANTITIES.forEach((name, i) => {
      quantities[name] = q[i] ?? 0;
    });
    this.add(
      { provider, model, model_tier, billable_customer_id, dimensions },
      {
        transactions,
        unpriced,
        conflicts,
        nanos: BigInt(nanos),
        quantities,
        reported: reported?.[0] ?? 0,
        reportedPicos: BigInt(reported?.[1] ?? 0),
        reportedNanos: BigInt(reported?.[2] ?? 0),
      },
    );
  }

  /** One record, as the worker counts it into its cell (`recordChange`): a duplicate adds nothing. */
  addRecord(
    record: CountedRecord & { cost_nanos: unknown; usage: unknown; provider_reported_cost_picos?: unknown },
  ): void {
    const change = recordChange(countedMoney(record), () => quantitiesOf(plainNumbers(record.usage) as UsageEntry[]));
    if (change === null) return;
    const { day: _day, ...key } = rollupKeyOf(record);
    this.add(key, {
      transactions: change.transactions ?? 0,
      unpriced: change.unpriced ?? 0,
      conflicts: change.conflicts ?? 0,
      nanos: BigInt(change.costNanos ?? 0n),
      quantities: change.quantities ?? {},
      reported: change.reported?.transactions ?? 0,
      reportedPicos: BigInt(change.reported?.picos ?? 0n),
      reportedNanos: BigInt(change.reported?.nanos ?? 0n),
    });
  }

  summaryCells(): SummaryCell[] {
    return [...this.cells.values()].map(
      ({ key, sums }) =>
        [
          key.provider,
          key.model,
          key.model_tier,
          key.billable_customer_id,
          key.dimensions,
          sums.transactions,
          sums.unpriced,
          sums.conflicts,
          sums.nanos.toString(),
          ROLLUP_QUANTITIES.map((name) => sums.quantities[name] ?? 0),
          // Only a cell with the vendor's figures carries them: the rows of every other cell stay as they were.
          ...(sums.reported === 0
            ? []
            : [[sums.reported, sums.reportedPicos.toString(), sums.reportedNanos.toString()]]),
        ] as SummaryCell,
    );
  }
}

/**
 * The cells in parts (one, maybe empty, at least), each its columns' JSON (SummaryColumns) compressed
 * (`cells_deflated`) to at most `maxBytes`, with their counts. Cells are taken in order up to
 * `rawBytes` of JSON rows a part, so that a reader inflates at most that much at a time; a part that
 * compresses to more than `maxBytes` (cells that share little) is halved until it fits.
 */
export function splitParts(
  cells: readonly SummaryCell[],
  maxBytes = MAX_PART_BYTES,
  rawBytes = MAX_PART_RAW_BYTES,
): Array<{ bytes: Buffer; count: number }> {
  const chunks: SummaryCell[][] = [[]];
  let size = 2;
  for (const cell of cells) {
    const bytes = Buffer.byteLength(JSON.stringify(cell)) + 1;
    const current = chunks[chunks.length - 1] as SummaryCell[];
    if (current.length > 0 && size + bytes > rawBytes) {
      chunks.push([cell]);
      size = 2 + bytes;
    } else {
      current.push(cell);
      size += bytes;
    }
  }
  const encode = (chunk: SummaryCell[]): Array<{ bytes: Buffer; count: number }> => {
    const bytes = deflateCells(JSON.stringify(toColumns(chunk)));
    if (chunk.length <= 1 || bytes.length <= maxBytes) return [{ bytes, count: chunk.length }];
    const half = Math.ceil(chunk.length / 2);
    return [...encode(chunk.slice(0, half)), ...encode(chunk.slice(half))];
  };
  return chunks.flatMap(encode);
}
