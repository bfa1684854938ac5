import type { Firestore } from "@google-cloud/firestore";
import { getOrganization, listDimensions, setDimensions } from "@usage-ingestion/organizations";
import {
  costReport,
  costReportCsv,
  FIELD_ALIASES,
  firestoreReportSource,
  parseCostQuery,
  ReportCeiling,
  ReportTooLarge,
} from "@usage-ingestion/reports";
import { UserError } from "@usage-ingestion/shared";

type Out = (line: string) => void;

/** `--name value` pairs and `--flag`s after the positional arguments. */
function options(rest: string[], known: string[]): Record<string, string> {
  const found: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const name = rest[i] as string;
    if (name === "--csv") found.format = "csv";
    else if (known.includes(name) && rest[i + 1] !== undefined) found[name.slice(2)] = rest[++i] as string;
    else if (name.startsWith("--")) throw new UserError(`unknown or incomplete option ${name}`);
    else if (name.includes("=")) {
      const [field, ...value] = name.split("=");
      found[field as string] = value.join("=");
    } else throw new UserError(`unexpected argument "${name}"`);
  }
  return found;
}

/** A plain text table: one column per grouped field, then the money and the counts. */
function printTable(report: Awaited<ReturnType<typeof costReport>>, out: Out) {
  const head = [...report.group_by, "cost_usd", "transactions", "unpriced", "conflicts"];
  const line = (cells: Array<string | number | null | undefined>) => cells.map((cell) => String(cell ?? "-"));
  const rows = report.groups.map((group) =>
    line([
      ...report.group_by.map((field) => group.key[field]),
      group.cost_usd,
      group.transactions,
      group.unpriced_transactions,
      group.conflict_transactions,
    ]),
  );
  const t = report.totals;
  const total = line([
    ...report.group_by.map((_, i) => (i === 0 ? "TOTAL" : "")),
    t.cost_usd,
    t.transactions,
    t.unpriced_transactions,
    t.conflict_transactions,
  ]);
  const all = [head, ...rows, total];
  const widths = head.map((_, c) => Math.max(...all.map((row) => (row[c] ?? "").length)));
  out(`costs received in [${report.from}, ${report.to})`);
  for (const row of all)
    out(
      row
        .map((cell, c) => cell.padEnd(widths[c] ?? 0))
        .join("  ")
        .trimEnd(),
    );
}

/** `org dimensions set|list` and `costs`; false when the command is not one of these. */
export async function runReportCommand(args: string[], db: Firestore, reportsDb: Firestore, out: Out) {
  const [group, action, ...rest] = args;
  if (group === "org" && action === "dimensions") {
    const [verb, org, ...names] = rest;
    if (verb === "set" && org) {
      const set = await setDimensions(db, org, names);
      out(set.length ? `${org} reports on context keys: ${set.join(", ")}` : `${org} declares no context dimensions`);
      return true;
    }
    if (verb === "list" && org) {
      const names = await listDimensions(db, org);
      out(names.length ? names.join("\n") : "no dimensions declared");
      return true;
    }
    throw new UserError("usage: npm run admin -- org dimensions set <org-id> <key>... | org dimensions list <org-id>");
  }
  if (group !== "costs") return false;
  if (!action || action.startsWith("--"))
    throw new UserError("usage: npm run admin -- costs <org-id> [--from] [--to] [--by]");
  const organization = await getOrganization(db, action);
  const params = options(rest, ["--from", "--to", "--by"]);
  if (params.by !== undefined) {
    params.group_by = params.by
      .split(",")
      .map((field) => field.trim())
      // Own aliases only: `--by constructor` is an unknown field, not Object's constructor.
      .map((field) => (Object.hasOwn(FIELD_ALIASES, field) ? FIELD_ALIASES[field] : field))
      .join(",");
    delete params.by;
  }
  const parsed = parseCostQuery(params, organization.dimensions ?? [], new Date());
  if (!parsed.ok) throw new UserError(parsed.message.replace("group_by", "--by"));
  // An operator's report in the terminal: every group, and ceilings an operator would rather wait for.
  const ceiling = new ReportCeiling({ maxDocuments: 2_000_000, timeoutMs: 600_000, maxGroups: 2_000_000 });
  const query = { ...parsed.query, limit: Number.POSITIVE_INFINITY };
  const report = await costReport(
    firestoreReportSource(reportsDb),
    action,
    query,
    organization.dimensions ?? [],
    ceiling,
  ).catch((error: unknown) => {
    throw error instanceof ReportTooLarge ? new UserError(error.message) : error;
  });
  if (parsed.query.format === "csv") out(costReportCsv(report).trimEnd());
  else printTable(report, out);
  return true;
}
