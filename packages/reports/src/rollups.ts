import type { Provider, UsageEntry } from "@usage-ingestion/shared";
import { type CostRecord, dimensionValue, isBillable } from "@usage-ingestion/shared";

/**
 * Cost roll-ups: what the reports read instead of the records. The worker adds each billable record to one
 * cell in the same atomic commit that creates the record (so redelivery, duplicates and re-pricing never
 * count twice), and a report reads a number of cells that grows with days and groups, never with
 * transactions. A cell is split into ROLLUP_SHARDS documents so that one busy customer and model never
 * funnels its writes into one document; a reader sums the shards.
 *
 * Layout: `organizations/{org}/cost_rollups/{day}_{cell}_{shard}` and, for the unpriced list,
 * `organizations/{org}/unpriced_rollups/{day}_{reason cell}_{shard}`.
 */
export const ROLLUP_SHARDS = 16;

/** Quantities summed per cell, as the client sent them (each vendor's own counting convention). */
export const ROLLUP_QUANTITIES = [
  "input_tokens",
  "output_tokens",
  "cached_tokens",
  "cache_creation_input_tokens",
  "reasoning_tokens",
  "images",
  "audio_seconds",
  "video_seconds",
  "requests",
  "sources_used",
  "custom_units",
] as const;
export type RollupQuantity = (typeof ROLLUP_QUANTITIES)[number];
export type Quantities = Record<RollupQuantity, number>;

/** What a cell is grouped by: the fixed fields plus the organization's declared context dimensions. */
export interface RollupKey {
  /** UTC day of the receive time, `YYYY-MM-DD`. */
  day: string;
  provider: Provider;
  model: string;
  model_tier: string | null;
  billable_customer_id: string;
  /** Declared dimensions only, at the time the record was written; values as text (`null` when absent). */
  dimensions: Record<string, string | null>;
}

/** One shard of one cell, as stored. Counters are incremented atomically with the record they count. */
export interface CostRollupDocument extends RollupKey {
  shard: number;
  /** Billable records (`priced` + `unpriced`). */
  transactions: number;
  unpriced_transactions: number;
  /** Records stored as `conflict`: never billed, listed so that a customer sees them. */
  conflict_transactions: number;
  /** Integer nano-USD of the priced records. Read with BigInt support: sums may pass 2^53. */
  cost_nanos: number | bigint;
  quantities: Quantities;
  /**
   * The priced records that carry the vendor's own cost (decision 0031): how many, that cost in integer
   * pico-USD, and our cost of the same records in nano-USD. Absent (0) on cells no such record reached,
   * every cell written before these existed included.
   */
  provider_reported_transactions?: number | bigint;
  provider_reported_cost_picos?: number | bigint;
  cost_nanos_where_provider_reported?: number | bigint;
}

/** Unpriced records by provider, model and reason, for `GET /usage/unpriced`. */
export interface UnpricedRollupDocument {
  day: string;
  provider: Provider;
  model: string;
  model_tier: string | null;
  reason: string;
  shard: number;
  transactions: number;
}

export const dayOf = (receivedAt: string): string => receivedAt.slice(0, 10);

/** An integer as a Firestore client hands it back: number, or bigint from a client built with `useBigInt`. */
export const wholeNanos = (value: unknown): bigint =>
  typeof value === "bigint" ? value : typeof value === "number" ? BigInt(Math.trunc(value)) : 0n;
export const plainCount = (value: unknown): number =>
  typeof value === "bigint" ? Number(value) : typeof value === "number" ? value : 0;

/** Usage as a BigInt client reads it, its counts back to numbers, as quantitiesOf sums them. */
export function plainNumbers(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(plainNumbers);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, plainNumbers(inner)]));
  }
  return value;
}

/**
 * Picks the declared dimensions out of a transaction's context: its own keys only, so that a dimension
 * named `constructor` or `toString` is null where the context does not have it, never an inherited function.
 */
export function declaredDimensions(context: unknown, declared: readonly string[]): Record<string, string | null> {
  const source = (typeof context === "object" && context !== null ? context : {}) as Record<string, unknown>;
  return Object.fromEntries(
    declared.map((name) => [name, dimensionValue(Object.hasOwn(source, name) ? source[name] : undefined)]),
  );
}

/** The fields of a record that place it in a cell and decide what it adds there. */
export type CountedRecord = Pick<
  CostRecord,
  "status" | "received_at" | "provider" | "model" | "model_tier" | "context" | "dimensions" | "unpriced_reason"
>;

/** The cell a record counts in: the one key the worker writes and the reports read. */
export function rollupKeyOf(record: CountedRecord): RollupKey {
  const context = (record.context ?? {}) as { billable_customer_id?: unknown };
  return {
    day: dayOf(record.received_at),
    provider: record.provider as Provider,
    model: record.model,
    model_tier: record.model_tier,
    billable_customer_id: String(context.billable_customer_id ?? ""),
    dimensions: record.dimensions ?? {},
  };
}

/** The reason an unpriced record is listed under in `GET /usage/unpriced`. */
export const unpricedReasonOf = (record: Pick<CostRecord, "unpriced_reason">): string =>
  record.unpriced_reason ?? "unknown";

/** What a change adds to a cell's counters (negative to take away, as re-pricing does). */
export interface RollupChange<Nanos extends number | bigint = number> {
  transactions?: number;
  unpriced?: number;
  conflicts?: number;
  costNanos?: Nanos | 0;
  quantities?: Quantities;
  /** A priced record with the vendor's own cost: that cost (pico-USD) and ours (nano-USD), beside the rest. */
  reported?: ReportedChange<Nanos>;
}

export interface ReportedChange<Nanos extends number | bigint = number> {
  transactions: number;
  picos: Nanos | 0;
  nanos: Nanos | 0;
}

/** The vendor's figures a record adds: only a priced record with one (decision 0031: like with like). */
export function reportedChange<Nanos extends number | bigint>(
  status: CostRecord["status"],
  costNanos: Nanos | null,
  picos: Nanos | null | undefined,
): ReportedChange<Nanos> | undefined {
  if (status !== "priced" || picos === null || picos === undefined) return undefined;
  return { transactions: 1, picos, nanos: costNanos ?? 0 };
}

/**
 * The counting rules, stated once for the worker's writes and the reports' reads of records: `priced` and
 * `unpriced` records are billed (counted, with their cost and quantities), a `conflict` is counted apart and
 * adds no money or quantity, a `duplicate` adds nothing (null). `quantities` is asked only for billed records.
 */
export function recordChange<Nanos extends number | bigint>(
  record: { status: CostRecord["status"]; cost_nanos: Nanos | null; provider_reported_cost_picos?: Nanos | null },
  quantities: () => Quantities,
): RollupChange<Nanos> | null {
  if (record.status === "duplicate") return null;
  if (!isBillable(record.status)) return { conflicts: 1 };
  const unpriced = record.status === "unpriced";
  const reported = reportedChange(record.status, record.cost_nanos, record.provider_reported_cost_picos);
  return {
    transactions: 1,
    unpriced: unpriced ? 1 : 0,
    costNanos: unpriced ? 0 : (record.cost_nanos ?? 0),
    quantities: quantities(),
    ...(reported ? { reported } : {}),
  };
}

/**
 * A stored record's money as the counting rules read it, whichever way its integers were read back: cost
 * in nano-USD, and the vendor's own cost in pico-USD only where the record has one.
 */
export function countedMoney(record: {
  status: CostRecord["status"];
  cost_nanos: unknown;
  provider_reported_cost_picos?: unknown;
}) {
  const picos = record.provider_reported_cost_picos;
  return {
    status: record.status,
    cost_nanos: wholeNanos(record.cost_nanos),
    provider_reported_cost_picos: picos === null || picos === undefined ? null : wholeNanos(picos),
  };
}

/** A stable text for a cell's grouping (the day excluded): hashed into document ids by the writer. */
export function cellText(key: Omit<RollupKey, "day">): string {
  const dims = Object.keys(key.dimensions)
    .sort()
    .map((name) => [name, key.dimensions[name]]);
  return JSON.stringify([key.provider, key.model, key.model_tier, key.billable_customer_id, dims]);
}

/** The shard a record goes to: spread by its message id, the same on every delivery. */
export function shardOf(messageId: string): number {
  let hash = 0;
  for (let i = 0; i < messageId.length; i++) hash = (hash * 31 + messageId.charCodeAt(i)) >>> 0;
  return hash % ROLLUP_SHARDS;
}

export const zeroQuantities = (): Quantities =>
  Object.fromEntries(ROLLUP_QUANTITIES.map((name) => [name, 0])) as Quantities;

/** The quantities of one transaction's usage, as sent. */
export function quantitiesOf(usage: readonly UsageEntry[]): Quantities {
  const sum = zeroQuantities();
  for (const entry of usage) {
    switch (entry.type) {
      case "tokens": {
        const m = entry.metrics;
        sum.input_tokens += m.input_tokens;
        sum.output_tokens += m.output_tokens;
        sum.cached_tokens += m.cached_tokens ?? m.cache_read_input_tokens ?? 0;
        sum.cache_creation_input_tokens += m.cache_creation_input_tokens ?? 0;
        sum.reasoning_tokens += m.reasoning_tokens ?? m.thinking_tokens ?? 0;
        break;
      }
      case "images":
        sum.images += entry.metrics.generated;
        break;
      case "audio_seconds": {
        const m = entry.metrics;
        sum.audio_seconds += m.total_seconds ?? (m.input_seconds ?? 0) + (m.output_seconds ?? 0);
        break;
      }
      case "video_seconds":
        sum.video_seconds += entry.metrics.processed_seconds;
        break;
      case "requests":
        sum.requests += entry.metrics.count;
        sum.sources_used += entry.metrics.sources_used ?? 0;
        break;
      case "custom":
        sum.custom_units += entry.metrics.units;
        break;
    }
  }
  return sum;
}
