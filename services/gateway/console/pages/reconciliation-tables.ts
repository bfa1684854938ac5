import { h, numberCell, table, value } from "../dom.ts";
import { count, exactUsd, signedUsd } from "../exact-usd.ts";
import { dayTotals, type ReconciliationRow, TOKEN_KINDS } from "../reconciliation-days.ts";
import {
  driftJudgement,
  judgementText,
  percentText,
  type Threshold,
  toleranceText,
} from "../reconciliation-settings.ts";

/** What each class says under the organization's tolerance, for the legend and the counts' titles (docs/reconciliation.md). */
const classes = (tolerance: Threshold): Array<[string, string]> => [
  ["matched", toleranceText(tolerance)],
  ["vendor_only", "the vendor billed usage that never reached us"],
  ["ours_only", "we counted usage the vendor did not report"],
  ["count_mismatch", `a token count differs by more than ${percentText(tolerance.percent)}`],
  ["price_mismatch", "the counts agree and the cost does not: a rate or tier is wrong or stale"],
];

/** A day's standing against the drift threshold; past it, said strongly. */
function judgementCell(judgement: ReturnType<typeof driftJudgement>) {
  const text = judgementText(judgement);
  return h("td", {}, judgement.state === "past" ? h("strong", { class: "past" }, text) : text);
}

/** The class, and for a price mismatch the component named with both sides' amounts. */
function classCell(row: ReconciliationRow) {
  const named = row.component
    ? [
        ` (${row.component}`,
        row.component_cost
          ? `: ours ${exactUsd(row.component_cost.ours_usd)}, vendor ${exactUsd(row.component_cost.vendor_usd)}`
          : "",
        ")",
      ]
    : "";
  return h("td", {}, h("strong", {}, row.class), named);
}

/** The model as compared (no snapshot date), and the names each side gave it where they differ. */
function modelCell(row: ReconciliationRow) {
  const names = [...new Set([...row.our_models, ...row.vendor_models])].filter((name) => name !== row.model);
  return h(
    "td",
    { class: "model" },
    value(row.model),
    names.length > 0
      ? h(
          "small",
          { class: "muted" },
          " as ",
          names.map((name, at) => [at > 0 ? ", " : "", value(name)]),
        )
      : "",
  );
}

const dayCell = (day: string) => h("td", { class: "nowrap" }, day);
const versus = (ours: number, vendor: number) => numberCell(`${count(ours)} / ${count(vendor)}`);

/** How many rows each class holds. */
export const classCounts = (counts: Record<string, number>, tolerance: Threshold) =>
  h(
    "section",
    { class: "totals", "aria-label": "Rows by class" },
    classes(tolerance).map(([name, meaning]) =>
      h(
        "div",
        { title: meaning },
        h("span", { class: "muted" }, name),
        h("span", { class: "figure" }, count(counts[name])),
      ),
    ),
  );

/** Each vendor's day: ours, the vendor's, the difference, the drift and whether it is past the threshold. */
export const driftTable = (rows: readonly ReconciliationRow[], threshold: Threshold, now = Date.now()) =>
  table(
    "Each day's totals per vendor",
    [
      "Day (UTC)",
      "Vendor",
      ["Rows", "number"],
      ["Ours", "number"],
      ["Vendor's", "number"],
      ["Difference", "number"],
      ["Drift", "number"],
      "Drift threshold",
    ],
    dayTotals(rows).map((total) => [
      dayCell(total.day),
      total.vendor,
      numberCell(count(total.rows)),
      numberCell(exactUsd(total.ours_usd)),
      numberCell(exactUsd(total.vendor_usd)),
      numberCell(signedUsd(total.difference_usd)),
      numberCell(
        total.drift ?? (total.awaiting_cost > 0 ? `awaiting the vendor's cost for ${total.awaiting_cost} rows` : "n/a"),
      ),
      judgementCell(driftJudgement(total, threshold, now)),
    ]),
  );

/** Every row, newest day first: both sides' counts and costs, the difference and the class. */
export const rowsTable = (rows: readonly ReconciliationRow[]) =>
  table(
    "Our figures beside the vendor's, per day, vendor and model",
    [
      "Day (UTC)",
      "Vendor",
      "Model",
      "Class",
      ...TOKEN_KINDS.map(([, label]): [string, string] => [`${label} (ours / vendor)`, "number"]),
      ["Cost, ours", "number"],
      ["Cost, vendor's", "number"],
      ["Difference", "number"],
    ],
    // Newest day first, as the days' totals: yesterday's figures are the ones read each morning.
    [...rows]
      .sort((a, b) => b.day.localeCompare(a.day))
      .map((row) => [
        dayCell(row.day),
        row.vendor,
        modelCell(row),
        classCell(row),
        ...TOKEN_KINDS.map(([kind]) => versus(row.ours[kind], row.reported[kind])),
        numberCell(exactUsd(row.ours.cost_usd)),
        numberCell(row.reported.cost_usd === null ? "not reported yet" : exactUsd(row.reported.cost_usd)),
        numberCell(signedUsd(row.difference.cost_usd)),
      ]),
  );

/** What each class means under the organization's tolerance. */
export const classLegend = (tolerance: Threshold) =>
  h(
    "dl",
    { class: "facts" },
    classes(tolerance).map(([name, meaning]) => [h("dt", {}, name), h("dd", {}, meaning)]),
  );
