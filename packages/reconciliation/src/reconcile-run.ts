import type { Firestore } from "@google-cloud/firestore";
import { getOrganization } from "@usage-ingestion/organizations";
import { ReportCeiling, type ReportSource } from "@usage-ingestion/reports";
import { DOCUMENT_PATHS, decimal, toNanosPer } from "@usage-ingestion/shared";
import type { SecretBox } from "@usage-ingestion/webhooks";
import { type Comparison, compareFigures, mismatchedComponent, type OurRate } from "./compare.ts";
import { listConnections, openCredential } from "./connection-store.ts";
import { driftEvents, recordDrift } from "./drift-events.ts";
import { ourFigures } from "./our-figures.ts";
import { ourRates } from "./our-rates.ts";
import { type ReconciliationRow, reconciliationRow } from "./reconciliation-rows.ts";
import type { ReconciliationSettings } from "./reconciliation-settings.ts";
import { replaceRows } from "./reconciliation-store.ts";
import type { RunDocument, RunVendorResult } from "./run-documents.ts";
import { runSettings } from "./settings-store.ts";
import { type SplitBy, splitOf } from "./split-by.ts";
import type { DayRange, ReadRequest } from "./vendor-days.ts";
import type { VendorFigure } from "./vendor-figures.ts";
import { VendorAnswerError } from "./vendor-http.ts";
import type { ConnectionVendor } from "./vendors.ts";

/**
 * Reads one vendor's own figures for whole UTC days with the organization's credential, split by the
 * request's `split` id where the vendor's reports are grouped by it (VendorFigure.split).
 */
export type VendorReader = (credential: string, range: ReadRequest) => Promise<VendorFigure[]>;

export interface ReconcileDeps {
  /** A client built with `useBigInt`: sums of nanos may pass 2^53. */
  db: Firestore;
  box: SecretBox;
  reports: ReportSource;
  /** The vendors read so far; a connection to another is recorded as not read. */
  readers: Partial<Record<ConnectionVendor, VendorReader>>;
  now: () => Date;
}

/** Our pricing's own rounding: a rate for `per` tokens times a count, in whole nanos, half up. */
const price = (rate: OurRate, tokens: number): bigint => {
  const usd = decimal(rate.usd);
  return toNanosPer({ coefficient: usd.coefficient * BigInt(tokens), scale: usd.scale }, rate.per);
};

/** What a failure may say: a vendor's own answer as our reader described it, never anything else it held. */
function failureText(error: unknown, credential: string | undefined): string {
  const text = error instanceof VendorAnswerError ? error.message : "the vendor's figures could not be read or stored";
  return credential ? text.split(credential).join("[credential]") : text;
}

const classCounts = (rows: readonly Comparison[]) => {
  const counts: RunVendorResult["classes"] = {};
  for (const row of rows) counts[row.class] = (counts[row.class] ?? 0) + 1;
  return counts;
};

/** One vendor of one organization: read, compare (split by `split`), name each price mismatch's component, store. */
async function reconcileVendor(
  deps: ReconcileDeps,
  organizationId: string,
  vendor: ConnectionVendor,
  range: DayRange,
  runId: string,
  settings: ReconciliationSettings,
  split: SplitBy | undefined,
): Promise<RunVendorResult> {
  const reader = deps.readers[vendor];
  if (!reader) return { vendor, rows: 0, classes: {}, alerted: [], error: `${vendor}'s reports are not read yet` };
  let credential: string | undefined;
  try {
    credential = await openCredential(deps.db, deps.box, organizationId, vendor);
    const vendorFigures = await reader(credential, split ? { ...range, split: split.vendor_field } : range);
    // A reader that does not split (one whose vendor's reports it cannot group) leaves the rows unsplit.
    const splitBy = split && vendorFigures.every((figure) => figure.split !== undefined) ? split : undefined;
    const ours = await ourFigures(deps.reports, organizationId, vendor, range, new ReportCeiling(), splitBy?.dimension);
    const comparisons = compareFigures(ours, vendorFigures, settings.tolerance);
    const now = deps.now();
    const rows: ReconciliationRow[] = [];
    for (const comparison of comparisons) {
      let named = null;
      if (comparison.class === "price_mismatch") {
        const rates = await ourRates(deps.db, organizationId, vendor, comparison.day, comparison.our_models);
        named = mismatchedComponent(vendor, comparison, rates, price);
      }
      rows.push(reconciliationRow(vendor, comparison, named, runId, now, splitBy));
    }
    await replaceRows(deps.db, organizationId, vendor, range, rows);
    const alerted = await recordDrift(
      deps.db,
      organizationId,
      driftEvents(organizationId, vendor, comparisons, settings.driftThreshold, now),
    );
    return { vendor, rows: rows.length, classes: classCounts(comparisons), alerted, error: null };
  } catch (error) {
    return { vendor, rows: 0, classes: {}, alerted: [], error: failureText(error, credential) };
  }
}

/**
 * One run: every vendor the organization is connected to, over the run's days, with the organization's
 * tolerance and drift threshold, each vendor's rows split by its mapped id (splitOf). Each connection keeps
 * when it was last read and what went wrong (null when nothing did); one vendor's failure does not stop
 * another.
 */
export async function reconcile(deps: ReconcileDeps, run: RunDocument): Promise<RunVendorResult[]> {
  const range = { from: new Date(`${run.from}T00:00:00Z`), to: new Date(`${run.to}T00:00:00Z`) };
  const results: RunVendorResult[] = [];
  const settings = await runSettings(deps.db, run.organization_id);
  const dimensions = (await getOrganization(deps.db, run.organization_id)).dimensions ?? [];
  for (const connection of await listConnections(deps.db, run.organization_id)) {
    const split = splitOf(connection.vendor, connection.mappings ?? {}, dimensions);
    const result = await reconcileVendor(deps, run.organization_id, connection.vendor, range, run.id, settings, split);
    await deps.db
      .doc(DOCUMENT_PATHS.connection(run.organization_id, connection.vendor))
      .update({ last_run_at: deps.now().toISOString(), last_error: result.error })
      .catch(() => undefined);
    results.push(result);
  }
  return results;
}
