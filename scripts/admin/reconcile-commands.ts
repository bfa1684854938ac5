import type { Firestore } from "@google-cloud/firestore";
import type { ChangeContext } from "@usage-ingestion/audit";
import {
  CLASSES,
  getRun,
  getSettings,
  listConnections,
  parseReconciliationQuery,
  putSettings,
  ReconciliationSettingsSchema,
  readRows,
  requestRun,
  runRange,
} from "@usage-ingestion/reconciliation";
import { ReportCeiling } from "@usage-ingestion/reports";
import { type FieldError, toFieldErrors, UserError } from "@usage-ingestion/shared";
import * as v from "valibot";

type Out = (line: string) => void;

export const RECONCILE_HELP = `Reconciliation with the vendors' own reports (docs/reconciliation.md)
  reconcile run <org-id> --from DAY --to DAY
                                      queue a run over whole UTC days (to excluded, at most 92); the
                                      worker's reconciliation job takes it up on its next tick; prints
                                      its id
  reconcile status <org-id> <run-id>  the run's state and, once done, each vendor's rows by class,
                                      the days alerted and the error
  reconcile show <org-id> [--from DAY] [--to DAY] [--provider VENDOR] [--model MODEL]
                                      the stored rows (default the last 31 days with today): day,
                                      vendor, model, split value, class, our cost, the vendor's, the
                                      difference; then the rows per class
  reconcile settings show <org-id>    the tolerance and drift threshold (defaults 1% and $0.01)
  reconcile settings set <org-id> [--tolerance-percent N] [--tolerance-usd USD]
                 [--drift-threshold-percent N] [--drift-threshold-usd USD]
                                      change those given (each N or USD, or "default")`;

const USAGE =
  "usage: npm run admin -- reconcile run <org-id> --from DAY --to DAY | status <org-id> <run-id> | " +
  "show <org-id> [--from DAY] [--to DAY] [--provider VENDOR] [--model MODEL] | settings show|set <org-id> ...";

/** `--name value` options, each at most once and each in `allowed`. */
function options(args: string[], allowed: readonly string[]): Map<string, string> {
  const given = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const [option, value] = [args[i] as string, args[i + 1]];
    if (!allowed.includes(option)) throw new UserError(`unknown option ${option}; ${USAGE}`);
    if (value === undefined || value.startsWith("--")) throw new UserError(`${option} needs a value`);
    if (given.has(option)) throw new UserError(`${option} is given twice`);
    given.set(option, value);
  }
  return given;
}

/** Field errors as the command line names its options: `tolerance_percent` is `--tolerance-percent`. */
const optionErrors = (errors: readonly FieldError[]) =>
  errors
    .map((error) => {
      const option = `--${error.field.replaceAll("_", "-")}`;
      return error.message.startsWith(error.field)
        ? `${option}${error.message.slice(error.field.length)}`
        : `${option}: ${error.message}`;
    })
    .join("; ");

const SETTING_OPTIONS = {
  "--tolerance-percent": "tolerance_percent",
  "--tolerance-usd": "tolerance_usd",
  "--drift-threshold-percent": "drift_threshold_percent",
  "--drift-threshold-usd": "drift_threshold_usd",
} as const;

async function runSettingsCommand(rest: string[], db: Firestore, out: Out, change: ChangeContext) {
  const [verb, organizationId, ...more] = rest;
  if (!organizationId || (verb !== "show" && verb !== "set")) throw new UserError(USAGE);
  let settings = await getSettings(db, organizationId);
  if (verb === "set") {
    const given = options(more, Object.keys(SETTING_OPTIONS));
    if (given.size === 0) throw new UserError(USAGE);
    // The others stay as they are; "default" takes a field back to its default.
    const { updated_at: _at, etag, ...view } = settings;
    const body: Record<string, unknown> = { ...view };
    for (const [option, value] of given) {
      const field = SETTING_OPTIONS[option as keyof typeof SETTING_OPTIONS];
      if (value === "default") delete body[field];
      else body[field] = field.endsWith("_percent") ? (/^\d+(\.\d+)?$/.test(value) ? Number(value) : value) : value;
    }
    const parsed = v.safeParse(ReconciliationSettingsSchema, body);
    if (!parsed.success) {
      throw new UserError(optionErrors(toFieldErrors(parsed.issues)));
    }
    settings = await putSettings(db, organizationId, parsed.output, change, etag);
  }
  out(`tolerance\t${settings.tolerance_percent}%\t${settings.tolerance_usd} USD`);
  out(`drift_threshold\t${settings.drift_threshold_percent}%\t${settings.drift_threshold_usd} USD`);
  out(`updated_at\t${settings.updated_at ?? "never (the defaults)"}`);
}

/**
 * `reconcile run|status|show|settings`: queue a run as `POST .../reconciliation/runs` does, read its
 * state, read the stored rows as `GET /usage/reconciliation` answers them, and the organization's
 * tolerance and drift threshold. `reportsDb` reads integers as BigInt (the rows' counts).
 */
export async function runReconcileCommand(
  rest: string[],
  db: Firestore,
  reportsDb: Firestore,
  out: Out,
  change: ChangeContext,
  now = new Date(),
): Promise<void> {
  const [verb, organizationId, ...more] = rest;
  if (verb === "settings") return runSettingsCommand(rest.slice(1), db, out, change);
  if (!organizationId || organizationId.startsWith("--")) throw new UserError(USAGE);
  switch (verb) {
    case "run": {
      const given = options(more, ["--from", "--to"]);
      const [from, to] = [given.get("--from"), given.get("--to")];
      if (!from || !to) throw new UserError(USAGE);
      const range = runRange(from, to, now);
      if ((await listConnections(db, organizationId)).length === 0) {
        throw new UserError(`${organizationId} is connected to no vendor: org connections set first`);
      }
      const run = await requestRun(db, organizationId, range, now);
      out(`queued run ${run.id} of ${organizationId} over ${run.from} to ${run.to} (excluded)`);
      return out(
        `the worker's reconciliation job takes it up on its next tick: reconcile status ${organizationId} ${run.id}`,
      );
    }
    case "status": {
      if (more.length !== 1) throw new UserError(USAGE);
      const run = await getRun(db, organizationId, more[0] as string);
      out(
        `${run.id}\t${run.state}\t${run.from}\t${run.to}\t${run.finished_at ?? "-"}${run.error ? `\t${run.error}` : ""}`,
      );
      for (const vendor of run.vendors) {
        const classes = Object.entries(vendor.classes).map(([name, count]) => `${name} ${count}`);
        out(
          [
            vendor.vendor,
            `${vendor.rows} rows`,
            classes.join(", ") || "-",
            `alerted ${vendor.alerted.join(",") || "-"}`,
            vendor.error ?? "-",
          ].join("\t"),
        );
      }
      return;
    }
    case "show": {
      const given = options(more, ["--from", "--to", "--provider", "--model"]);
      const params = Object.fromEntries([...given].map(([option, value]) => [option.slice(2), value]));
      const parsed = parseReconciliationQuery(params, now);
      if (!parsed.ok) throw new UserError(optionErrors(parsed.errors));
      const rows = await readRows(reportsDb, organizationId, parsed.query, new ReportCeiling());
      const counts = Object.fromEntries(CLASSES.map((name) => [name, 0]));
      for (const row of rows) {
        counts[row.class] = (counts[row.class] ?? 0) + 1;
        out(
          [
            row.day,
            row.vendor,
            row.model,
            row.split ? `${row.split.dimension}=${row.split.value ?? "(none)"}` : "-",
            row.class + (row.component ? ` (${row.component})` : ""),
            row.ours.cost_usd,
            row.reported.cost_usd ?? "-",
            row.difference.cost_usd,
          ].join("\t"),
        );
      }
      return out(`${rows.length} rows: ${CLASSES.map((name) => `${name} ${counts[name]}`).join(", ")}`);
    }
    default:
      throw new UserError(USAGE);
  }
}
