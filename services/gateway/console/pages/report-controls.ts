import { get, orgPath } from "../api.ts";
import type { PageContext } from "../context.ts";
import { field, h, select } from "../dom.ts";
import { PRESETS, type Range, rangeOf, timeZone } from "../range.ts";

/** What reports group and filter on: the API's parameter and what people call it. */
export interface ReportField {
  param: string;
  label: string;
}

const FIXED: ReportField[] = [
  { param: "billable_customer_id", label: "Customer" },
  { param: "provider", label: "Provider" },
  { param: "model", label: "Model" },
  { param: "model_tier", label: "Tier" },
];

/** The fixed fields and the organization's declared `context` dimensions. */
export async function reportFields(org: string): Promise<ReportField[]> {
  const { dimensions } = await get<{ dimensions: string[] }>(orgPath(org));
  return [...FIXED, ...dimensions.map((name) => ({ param: `context.${name}`, label: name }))];
}

/** The filters the query holds, as the API's parameters. */
export function filtersOf(params: URLSearchParams, fields: ReportField[]): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const { param } of fields) {
    const filter = params.get(param);
    if (filter) filters[param] = filter;
  }
  return filters;
}

interface ControlsOptions {
  fields: ReportField[];
  range: Range;
  /** Costs: the field the table and chart are grouped by. */
  groupBy?: string;
  /** Transactions: the record status filter. */
  status?: boolean;
}

/**
 * The range (presets or custom days, in the browser's time zone), the grouping, one filter per field
 * (several at once) and Apply: applying writes them all to the URL, which the page is read from.
 */
export function reportControls(context: PageContext, options: ControlsOptions) {
  const { params } = context;
  const preset = select("range", PRESETS, options.range.preset);
  const from = h("input", { type: "date", name: "from", value: options.range.fromDay });
  const to = h("input", { type: "date", name: "to", value: options.range.toDay });
  const customDays = h("div", { class: "fields", hidden: options.range.preset !== "custom" }, [
    field("From", from),
    field("To (inclusive)", to),
  ]);
  preset.addEventListener("change", () => {
    customDays.hidden = preset.value !== "custom";
  });
  const group =
    options.groupBy === undefined
      ? undefined
      : select(
          "group_by",
          options.fields.map((each) => [each.param, each.label]),
          options.groupBy,
        );
  const filters = options.fields.map((each) => {
    const input = h("input", { name: each.param, value: params.get(each.param) ?? "", autocomplete: "off" });
    return { param: each.param, input, block: field(each.label, input) };
  });
  const status = options.status
    ? select(
        "status",
        [
          ["", "any"],
          ["priced", "priced"],
          ["unpriced", "unpriced"],
          ["duplicate", "duplicate"],
          ["conflict", "conflict"],
        ],
        params.get("status") ?? "",
      )
    : undefined;
  const form = h(
    "form",
    {
      class: "panel",
      "aria-label": "Report",
      onsubmit: (event: Event) => {
        event.preventDefault();
        const custom = preset.value === "custom";
        const changes: Record<string, string | undefined> = {
          range: preset.value,
          from: custom ? from.value : undefined,
          to: custom ? to.value : undefined,
          page_token: undefined,
          record: undefined,
        };
        if (group) changes.group_by = group.value;
        if (status) changes.status = status.value;
        for (const filter of filters) changes[filter.param] = filter.input.value.trim();
        context.go(changes);
      },
    },
    h(
      "div",
      { class: "fields" },
      field("Range", preset, `Days in ${timeZone()}`),
      customDays,
      group && field("Group by", group),
    ),
    h("h2", { class: "small" }, "Filters (exact values)"),
    h(
      "div",
      { class: "fields" },
      filters.map((filter) => filter.block),
      status && field("Status", status),
    ),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "primary" }, "Apply")),
  );
  return form;
}

export { rangeOf };
