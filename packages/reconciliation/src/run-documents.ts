import type { DifferenceClass } from "./compare.ts";
import type { ConnectionVendor } from "./vendors.ts";

export const RUN_STATES = ["queued", "running", "succeeded", "failed"] as const;
export type RunState = (typeof RUN_STATES)[number];

/** What one run found for one vendor: its rows by class, or why it could not read the vendor. */
export interface RunVendorResult {
  vendor: ConnectionVendor;
  rows: number;
  classes: Partial<Record<DifferenceClass, number>>;
  /** Days this run alerted (`reconciliation.drift`, once per day and vendor). */
  alerted: string[];
  error: string | null;
}

/**
 * `organizations/{org}/reconciliation_runs/{id}`: a run asked for (`POST .../reconciliation/runs`) or the
 * day's own (`daily_{day}`, created once whatever ticks run), queued until the worker's tick takes it.
 */
export interface RunDocument {
  id: string;
  organization_id: string;
  trigger: "requested" | "daily";
  /** Whole UTC days, `to` excluded. */
  from: string;
  to: string;
  state: RunState;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  vendors: RunVendorResult[];
  /** Why the run could not go on (the organization's connections or our figures unreadable); null otherwise. */
  error?: string | null;
}
