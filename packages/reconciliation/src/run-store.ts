import { randomBytes } from "node:crypto";
import type { Firestore, Query } from "@google-cloud/firestore";
import { getOrganization } from "@usage-ingestion/organizations";
import { COLLECTIONS, DOCUMENT_PATHS, NotFoundError, UserError } from "@usage-ingestion/shared";
import { isAlreadyExists } from "@usage-ingestion/shared/server";
import type { RunDocument, RunVendorResult } from "./run-documents.ts";
import { DAY_MS, type DayRange } from "./vendor-days.ts";

/** Days one run may cover: the vendors keep about this much at a day's grain, and it bounds one run's work. */
export const MAX_RUN_DAYS = 92;
/** The day's own runs are queued from this hour (UTC): yesterday's reports have had the night to fill in. */
export const DAILY_RUN_HOUR_UTC = 6;
/** Queued runs one tick takes up. */
export const RUNS_PER_TICK = 20;

const dayText = (at: Date) => at.toISOString().slice(0, 10);
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `{ from, to }` as whole UTC days (`YYYY-MM-DD`, `to` excluded), not past today, at most MAX_RUN_DAYS apart. */
export function runRange(from: string, to: string, now: Date): DayRange {
  const at = (text: string, name: string) => {
    const date = new Date(`${text}T00:00:00Z`);
    if (!DAY.test(text) || Number.isNaN(date.getTime()) || dayText(date) !== text) {
      throw new UserError(`${name} must be a UTC day YYYY-MM-DD`);
    }
    return date;
  };
  const range = { from: at(from, "from"), to: at(to, "to") };
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  if (range.to.getTime() <= range.from.getTime())
    throw new UserError("to must be a later day than from (to is excluded)");
  if (range.to.getTime() > today + DAY_MS)
    throw new UserError("to must be at most tomorrow: the vendors report whole past days");
  if (range.to.getTime() - range.from.getTime() > MAX_RUN_DAYS * DAY_MS) {
    throw new UserError(`a run covers at most ${MAX_RUN_DAYS} days`);
  }
  return range;
}

function newRun(
  organizationId: string,
  id: string,
  trigger: RunDocument["trigger"],
  range: DayRange,
  now: Date,
): RunDocument {
  return {
    id,
    organization_id: organizationId,
    trigger,
    from: dayText(range.from),
    to: dayText(range.to),
    state: "queued",
    created_at: now.toISOString(),
    started_at: null,
    finished_at: null,
    vendors: [],
  };
}

/** Queues a run asked for; the worker's next tick takes it up. */
export async function requestRun(db: Firestore, organizationId: string, range: DayRange, now = new Date()) {
  await getOrganization(db, organizationId);
  const id = `run_${randomBytes(12).toString("hex")}`;
  const run = newRun(organizationId, id, "requested", range, now);
  await db.doc(DOCUMENT_PATHS.reconciliationRun(organizationId, id)).create(run);
  return run;
}

/** The day's own run of an organization, created once (its id is the day's); false when it already exists. */
export async function queueDailyRun(
  db: Firestore,
  organizationId: string,
  range: DayRange,
  now: Date,
): Promise<boolean> {
  const id = `daily_${dayText(now)}`;
  try {
    await db
      .doc(DOCUMENT_PATHS.reconciliationRun(organizationId, id))
      .create(newRun(organizationId, id, "daily", range, now));
    return true;
  } catch (error) {
    if (isAlreadyExists(error)) return false;
    throw error;
  }
}

export async function getRun(db: Firestore, organizationId: string, runId: string): Promise<RunDocument> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(runId)) throw new NotFoundError(`no reconciliation run "${runId.slice(0, 64)}"`);
  const snap = await db.doc(DOCUMENT_PATHS.reconciliationRun(organizationId, runId)).get();
  if (!snap.exists) throw new NotFoundError(`no reconciliation run "${runId}"`);
  return snap.data() as RunDocument;
}

/** Queued runs across organizations, oldest first within what one tick takes. */
export async function queuedRuns(
  db: Firestore,
  limit = RUNS_PER_TICK,
  /** Only these organizations' runs, each read from its own collection; absent, every organization's. */
  organizationIds?: readonly string[],
): Promise<RunDocument[]> {
  const queued = (query: Query) => query.where("state", "==", "queued").limit(limit).get();
  const snaps =
    organizationIds === undefined
      ? [await queued(db.collectionGroup(COLLECTIONS.reconciliationRuns))]
      : await Promise.all(organizationIds.map((id) => queued(db.collection(DOCUMENT_PATHS.reconciliationRuns(id)))));
  return snaps
    .flatMap((snap) => snap.docs)
    .filter((doc) => doc.ref.parent.parent?.parent.id === COLLECTIONS.organizations)
    .map((doc) => doc.data() as RunDocument)
    .sort((a, b) => (a.created_at < b.created_at ? -1 : 1))
    .slice(0, limit);
}

/** Takes a queued run, once: false when another tick took it first. */
export async function claimRun(db: Firestore, run: RunDocument, now: Date): Promise<boolean> {
  const ref = db.doc(DOCUMENT_PATHS.reconciliationRun(run.organization_id, run.id));
  return db.runTransaction(async (transaction) => {
    const snap = await transaction.get(ref);
    if (!snap.exists || (snap.data() as RunDocument).state !== "queued") return false;
    transaction.update(ref, { state: "running", started_at: now.toISOString() });
    return true;
  });
}

/** Ends a run: `failed` when every vendor failed, or when the run itself could not go on (`error`). */
export async function finishRun(
  db: Firestore,
  run: RunDocument,
  vendors: RunVendorResult[],
  now: Date,
  error: string | null = null,
) {
  const failed = error !== null || (vendors.length > 0 && vendors.every((result) => result.error !== null));
  await db.doc(DOCUMENT_PATHS.reconciliationRun(run.organization_id, run.id)).update({
    state: failed ? "failed" : "succeeded",
    finished_at: now.toISOString(),
    vendors,
    error,
  });
}

/** Connections one tick looks at for the daily runs (four vendors an organization). */
const MAX_CONNECTED = 20_000;

/** Organizations with an active connection, each once. */
export async function connectedOrganizations(db: Firestore): Promise<string[]> {
  const snap = await db
    .collectionGroup(COLLECTIONS.connections)
    .where("status", "==", "active")
    .select()
    .limit(MAX_CONNECTED)
    .get();
  const ids = new Set<string>();
  for (const doc of snap.docs) {
    const organization = doc.ref.parent.parent;
    if (organization && organization.parent.id === COLLECTIONS.organizations) ids.add(organization.id);
  }
  return [...ids].sort();
}
