import type { CostFigures } from "./aggregate.ts";
import type { CostReport } from "./cost-report.ts";
import { ROLLUP_QUANTITIES } from "./rollups.ts";

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; null is an empty field. */
function field(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Text a spreadsheet would run as a formula: it starts with `=`, `+`, `-`, `@`, a tab or a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A grouped value as a client sent it (a customer, a model, a dimension value): prefixed with `'` where a
 * spreadsheet would run it as a formula (OWASP's advice on CSV injection). Our own figures never need it.
 */
const keyField = (value: string | null | undefined): string =>
  field(typeof value === "string" && FORMULA_START.test(value) ? `'${value}` : value);

const figureColumns = [
  "cost_usd",
  "cost_nanos",
  "transactions",
  "unpriced_transactions",
  "conflict_transactions",
  ...ROLLUP_QUANTITIES,
  "provider_reported_transactions",
  "provider_reported_cost_usd",
  "provider_reported_cost_picos",
  "cost_usd_where_provider_reported",
  "cost_nanos_where_provider_reported",
  "provider_reported_difference_usd",
] as const;

function figureFields(figures: CostFigures): string[] {
  return figureColumns.map((name) =>
    field(
      name in figures.quantities
        ? figures.quantities[name as keyof CostFigures["quantities"]]
        : (figures[name as keyof CostFigures] as string | number),
    ),
  );
}

/**
 * The same report as CSV: a `row` column (`group` or `total`), one column per grouped field, then the
 * figures; the totals are the last line, with the grouped fields empty.
 */
export function costReportCsv(report: CostReport): string {
  const header = ["row", ...report.group_by, ...figureColumns].map(field).join(",");
  const rows = report.groups.map((group) =>
    ["group", ...report.group_by.map((name) => keyField(group.key[name])), ...figureFields(group)].join(","),
  );
  const total = ["total", ...report.group_by.map(() => ""), ...figureFields(report.totals)].join(",");
  return `${[header, ...rows, total].join("\r\n")}\r\n`;
}
