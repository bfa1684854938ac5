import { get, withQuery } from "../api.ts";
import { OTHER, stackedBarChart } from "../chart.ts";
import type { Page } from "../context.ts";
import { fill, h, numberCell, table, value } from "../dom.ts";
import { count, exactUsd } from "../exact-usd.ts";
import { filtersOf, rangeOf, reportControls, reportFields } from "./report-controls.ts";

interface Group {
  key: Record<string, string | null>;
  cost_usd: string;
  transactions: number;
  unpriced_transactions: number;
  conflict_transactions: number;
  quantities: Record<string, number>;
}

interface CostsAnswer {
  groups: Group[];
  totals: Omit<Group, "key">;
  next_page_token?: string;
}

const SERIES = 7;
const AXIS = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumSignificantDigits: 4 });

/**
 * Costs: GET /usage/costs over the range, grouped by one field and filtered on any, as totals, a chart
 * stacked by the group per UTC day, and a table of exact amounts; CSV of the same query. Every choice
 * is in the URL.
 */
export const costsPage: Page = async (context, into) => {
  const { org, params } = context;
  const fields = await reportFields(org.id);
  const range = rangeOf(params);
  const asked = params.get("group_by") ?? "model";
  const groupBy = fields.some((each) => each.param === asked) ? asked : "model";
  const label = fields.find((each) => each.param === groupBy)?.label ?? groupBy;
  const query = { org: org.id, from: range.from, to: range.to, ...filtersOf(params, fields) };
  const [grouped, byDay] = await Promise.all([
    get<CostsAnswer>(withQuery("/usage/costs", { ...query, group_by: groupBy })),
    get<CostsAnswer>(withQuery("/usage/costs", { ...query, group_by: `day,${groupBy}`, limit: "10000" })),
  ]);
  const totals = grouped.totals;
  const csv = withQuery("/usage/costs", { ...query, group_by: groupBy, format: "csv" });
  const name = (group: Group) => group.key[groupBy] ?? "(none)";

  // The chart: the largest series by themselves, the rest as "other".
  const top = grouped.groups.slice(0, SERIES).map(name);
  const days = [...new Set(byDay.groups.map((group) => group.key.day as string))].sort();
  const seriesNames = grouped.groups.length > SERIES ? [...top, OTHER] : top;
  const series = seriesNames.map((seriesName) => ({ name: seriesName, values: days.map(() => 0) }));
  for (const group of byDay.groups) {
    const at = seriesNames.indexOf(top.includes(name(group)) ? name(group) : OTHER);
    const entry = series[at];
    if (entry)
      entry.values[days.indexOf(group.key.day as string)] =
        (entry.values[days.indexOf(group.key.day as string)] ?? 0) + Number(group.cost_usd);
  }

  fill(
    into,
    h("h1", {}, "Costs"),
    reportControls(context, { fields, range, groupBy }),
    h(
      "section",
      { class: "totals", "aria-label": "Totals" },
      h(
        "div",
        {},
        h("span", { class: "muted" }, "Cost"),
        h("span", { class: "figure", id: "total-cost" }, exactUsd(totals.cost_usd)),
      ),
      h(
        "div",
        {},
        h("span", { class: "muted" }, "Transactions"),
        h("span", { class: "figure" }, count(totals.transactions)),
      ),
      h(
        "div",
        {},
        h("span", { class: "muted" }, "Unpriced"),
        h("span", { class: "figure" }, count(totals.unpriced_transactions)),
      ),
      h(
        "div",
        {},
        h("span", { class: "muted" }, "Conflicts"),
        h("span", { class: "figure" }, count(totals.conflict_transactions)),
      ),
    ),
    h("h2", {}, `Cost per UTC day by ${label}`),
    days.length === 0
      ? h("p", {}, "Nothing in this range.")
      : stackedBarChart({
          bars: days,
          series,
          format: (amount) => AXIS.format(amount),
          label: `Cost per day, stacked by ${label}, from ${range.fromDay} to ${range.toDay}`,
        }),
    h("h2", {}, `By ${label}`),
    h(
      "div",
      { class: "actions" },
      h("a", { href: csv, download: `costs-${org.id}-${range.fromDay}-${range.toDay}.csv` }, "Download CSV"),
    ),
    table(
      `Costs by ${label}`,
      [
        label,
        ["Cost (USD)", "number"],
        ["Transactions", "number"],
        ["Unpriced", "number"],
        ["Conflicts", "number"],
        ["Input tokens", "number"],
        ["Output tokens", "number"],
      ],
      grouped.groups.map((group) => [
        value(name(group)),
        numberCell(exactUsd(group.cost_usd)),
        numberCell(count(group.transactions)),
        numberCell(count(group.unpriced_transactions)),
        numberCell(count(group.conflict_transactions)),
        numberCell(count(group.quantities.input_tokens)),
        numberCell(count(group.quantities.output_tokens)),
      ]),
    ),
    grouped.next_page_token
      ? h("p", { class: "muted" }, "More groups than shown: narrow the range or filter; the CSV holds them all.")
      : null,
  );
};
