import type { Firestore } from "@google-cloud/firestore";
import { firestoreReportSource, ReportCeiling, type ReportLimits } from "@usage-ingestion/reports";
import { COLLECTIONS, DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { isAlreadyExists } from "@usage-ingestion/shared/server";
import { budgetEvents, type EventDocument } from "./budget-events.ts";
import { firestoreBudgetSource } from "./budget-source.ts";
import { budgetStatuses } from "./budget-spent.ts";

export interface EvaluateOptions {
  /** The ceilings of one organization's spent reads in one run (its budgets share them). */
  limits: ReportLimits;
  /** These organizations only; absent, every organization that holds budgets. */
  organizationIds?: readonly string[];
  /**
   * Event ids this evaluator already created or found: not tried again. Kept by the caller across runs
   * (a process's ticks); a new evaluator starts empty and finds them by its failed creates.
   */
  known?: Set<string>;
}

export interface EvaluateRun {
  organizations: number;
  budgets: number;
  /** The events this run created (ids), in the order created. */
  created: string[];
  /** Organizations whose budgets could not be evaluated this run (logged; tried again next run). */
  failed: Array<{ organization_id: string; error: string }>;
}

/** Past this many ids the memory of known events starts again: it only saves writes that would fail. */
const MAX_KNOWN_EVENTS = 50_000;

/**
 * Creates the event, on condition that it does not exist: an alert is recorded once whatever evaluators,
 * retries or restarts try it. True when this call created it.
 */
async function createOnce(db: Firestore, organizationId: string, event: EventDocument): Promise<boolean> {
  try {
    await db.doc(DOCUMENT_PATHS.event(organizationId, event.id)).create(event);
    return true;
  } catch (error) {
    if (isAlreadyExists(error)) return false;
    throw error;
  }
}

/** Organizations marked as holding budgets (`has_budgets`, kept by `admin budget`), a page of ids at a time. */
async function* organizationsWithBudgets(db: Firestore): AsyncIterable<string> {
  const query = db
    .collection(COLLECTIONS.organizations)
    .where("has_budgets", "==", true)
    .select("status")
    .orderBy("__name__");
  let after: string | undefined;
  for (;;) {
    const page = await (after === undefined ? query : query.startAfter(after)).limit(500).get();
    for (const doc of page.docs) if (doc.get("status") !== "disabled") yield doc.id;
    if (page.size < 500) return;
    after = page.docs[page.docs.length - 1]?.id;
  }
}

/**
 * One run of the evaluation step at `now`: for each organization with budgets, every budget's status
 * (spent read as the reports read it), and an event in the outbox for each threshold reached in the
 * current period and for a forecast above the amount, each created once. Give it a client built with
 * `useBigInt` (sums of nanos may pass 2^53). One organization's failure is logged in the run and does
 * not stop the others.
 */
export async function evaluateBudgets(db: Firestore, now: Date, options: EvaluateOptions): Promise<EvaluateRun> {
  const run: EvaluateRun = { organizations: 0, budgets: 0, created: [], failed: [] };
  const known = options.known ?? new Set<string>();
  if (known.size > MAX_KNOWN_EVENTS) known.clear();
  const budgets = firestoreBudgetSource(db);
  const reports = firestoreReportSource(db);
  const evaluate = async (organizationId: string) => {
    const held = await budgets.list(organizationId);
    if (held.length === 0) return;
    run.organizations += 1;
    run.budgets += held.length;
    const statuses = await budgetStatuses(reports, organizationId, held, now, new ReportCeiling(options.limits));
    for (const status of statuses) {
      for (const event of budgetEvents(organizationId, status, now.toISOString())) {
        if (known.has(event.id)) continue;
        if (await createOnce(db, organizationId, event)) run.created.push(event.id);
        known.add(event.id);
      }
    }
  };
  const ids = options.organizationIds ?? organizationsWithBudgets(db);
  await eachAtOnce(ids, ORGANIZATIONS_AT_ONCE, async (organizationId) => {
    try {
      await evaluate(organizationId);
    } catch (error) {
      run.failed.push({ organization_id: organizationId, error: (error as Error).message });
    }
  });
  return run;
}

/**
 * Organizations evaluated at once: one whose spent is slow to read (up to its time limit) holds one lane,
 * and the others go on in the rest.
 */
const ORGANIZATIONS_AT_ONCE = 4;

/** `work` on each item, at most `lanes` at a time, each lane taking the next item when it is free. */
async function eachAtOnce<T>(
  items: AsyncIterable<T> | Iterable<T>,
  lanes: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const iterator =
    Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : (items as Iterable<T>)[Symbol.iterator]();
  const lane = async () => {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      await work(next.value);
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}
