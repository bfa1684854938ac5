import { type ReconcileDeps, reconcile } from "./reconcile-run.ts";
import type { RunVendorResult } from "./run-documents.ts";
import {
  claimRun,
  connectedOrganizations,
  DAILY_RUN_HOUR_UTC,
  finishRun,
  queueDailyRun,
  queuedRuns,
} from "./run-store.ts";
import { DAY_MS } from "./vendor-days.ts";

export interface TickRun {
  /** Daily runs queued by this tick. */
  queued: number;
  /** Runs done by this tick, each with its vendors' results. */
  done: Array<{ organization_id: string; run_id: string; vendors: RunVendorResult[]; error?: string }>;
}

/**
 * One tick of the reconciliation job: the day's run of each connected organization is queued (once a
 * day, from DAILY_RUN_HOUR_UTC: the vendors restate recent days, so it reads the last `lookbackDays` whole
 * days again), then the
 * queued runs, those asked for through the API included, are taken up one at a time.
 */
export async function reconcileTick(
  deps: ReconcileDeps,
  lookbackDays: number,
  /** Only these organizations (tests, and `admin` on demand); absent, every connected one. */
  organizationIds?: readonly string[],
): Promise<TickRun> {
  const now = deps.now();
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const range = { from: new Date(today - lookbackDays * DAY_MS), to: new Date(today) };
  const tick: TickRun = { queued: 0, done: [] };
  const wanted = (id: string) => organizationIds === undefined || organizationIds.includes(id);
  if (now.getUTCHours() >= DAILY_RUN_HOUR_UTC) {
    for (const organizationId of (await connectedOrganizations(deps.db)).filter(wanted)) {
      if (await queueDailyRun(deps.db, organizationId, range, now)) tick.queued += 1;
    }
  }
  for (const run of await queuedRuns(deps.db, undefined, organizationIds)) {
    if (!(await claimRun(deps.db, run, deps.now()))) continue;
    try {
      const vendors = await reconcile(deps, run);
      await finishRun(deps.db, run, vendors, deps.now());
      tick.done.push({ organization_id: run.organization_id, run_id: run.id, vendors });
    } catch {
      // Not one vendor's failure (those are in `vendors`): the run ends failed, and the tick goes on.
      const error = "the run could not read the organization's connections or figures; ask again";
      await finishRun(deps.db, run, [], deps.now(), error).catch(() => undefined);
      tick.done.push({ organization_id: run.organization_id, run_id: run.id, vendors: [], error });
    }
  }
  return tick;
}
