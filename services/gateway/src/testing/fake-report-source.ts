import { randomUUID } from "node:crypto";
import type { ReportSource } from "@usage-ingestion/reports";
import type { CostRecord } from "@usage-ingestion/shared";

/** One record to hold; whatever is left out gets a plain default. */
export interface FakeRecord {
  received_at: string;
  customer?: string;
  model?: string;
  cost_nanos?: number;
}

/** Records a page, as the Firestore source pages them; small, so that a report reads several. */
const PAGE_SIZE = 50;

/**
 * The report source in memory: records only, no roll-ups or summaries, so a report over whole hours of
 * one day reads exactly the records held (as Firestore answers before the fold has run). An
 * organization's records can be held back after their first page (`stall`), to keep a report running.
 */
export function fakeReportSource() {
  const records = new Map<string, CostRecord[]>();
  const declared = new Map<string, string[]>();
  const stalled = new Map<string, { reached: () => void; released: Promise<void> }>();
  /** The organizations whose records were read, in order: whose data a report touched. */
  const reads: string[] = [];
  const nothing = async function* (): AsyncIterable<never[]> {};
  async function* pages(organizationId: string, held: CostRecord[]): AsyncIterable<CostRecord[]> {
    for (let start = 0; start < held.length; start += PAGE_SIZE) {
      if (start > 0) {
        const stall = stalled.get(organizationId);
        stall?.reached();
        await stall?.released;
      }
      yield held.slice(start, start + PAGE_SIZE);
    }
  }
  const source = {
    reads,
    declaredDimensions: async (organizationId: string) => declared.get(organizationId) ?? [],
    costRollups: nothing,
    costSummaries: nothing,
    summaryMarks: nothing,
    hourSummaries: nothing,
    hourPartials: nothing,
    monthSummaries: nothing,
    hourMarks: nothing,
    unpricedRollups: nothing,
    records(organizationId: string, range: { from: Date; to: Date }): AsyncIterable<CostRecord[]> {
      reads.push(organizationId);
      const from = range.from.toISOString();
      const to = range.to.toISOString();
      const held = (records.get(organizationId) ?? []).filter((r) => r.received_at >= from && r.received_at < to);
      return pages(organizationId, held);
    },
    declare(organizationId: string, dimensions: string[]): void {
      declared.set(organizationId, dimensions);
    },
    /** Priced records of the organization, as the worker stores them. */
    add(organizationId: string, ...seeds: FakeRecord[]): void {
      const held = records.get(organizationId) ?? [];
      held.push(...seeds.map((seed) => pricedRecord(organizationId, seed)));
      held.sort((a, b) => a.received_at.localeCompare(b.received_at));
      records.set(organizationId, held);
    },
    /**
     * The organization's records stop after their first page until `release` is called; `reached`
     * resolves when a report has read that page and waits.
     */
    stall(organizationId: string): { reached: Promise<void>; release: () => void } {
      let reached = () => {};
      let release = () => {};
      const reachedPromise = new Promise<void>((resolve) => {
        reached = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      stalled.set(organizationId, { reached, released });
      return { reached: reachedPromise, release };
    },
  } satisfies ReportSource & Record<string, unknown>;
  return source;
}

export type FakeReportSource = ReturnType<typeof fakeReportSource>;

function pricedRecord(organizationId: string, seed: FakeRecord): CostRecord {
  return {
    message_id: randomUUID(),
    request_id: randomUUID(),
    transaction_index: 0,
    organization_id: organizationId,
    received_at: seed.received_at,
    processed_at: seed.received_at,
    provider: "openai",
    model: seed.model ?? "gpt-4o",
    model_tier: null,
    context: { billable_customer_id: seed.customer ?? "cust-1" },
    usage: [{ type: "tokens", metrics: { input_tokens: 100, output_tokens: 20, total_tokens: 120 } }],
    provider_usage_raw: null,
    transaction_id: null,
    duplicate_of: null,
    status: "priced",
    unpriced_reason: null,
    cost_usd: null,
    cost_nanos: seed.cost_nanos ?? 1_000,
    line_items: [],
    pricing: { source: null, version: null, model: null },
    currency: "USD",
    queue_schema_version: 1,
    dimensions: {},
  };
}
