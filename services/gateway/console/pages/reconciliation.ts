import { get, orgPath, withQuery } from "../api.ts";
import type { Page } from "../context.ts";
import { fill, h, numberCell, table, value } from "../dom.ts";
import { count, exactUsd, signedUsd } from "../exact-usd.ts";
import { dayTotals, type ReconciliationRow, TOKEN_KINDS } from "../reconciliation-days.ts";
import { hrefOf } from "../route.ts";
import { dayAfter, reconciliationControls, reconciliationQueryOf } from "./reconciliation-controls.ts";
import { runPanel } from "./reconciliation-run.ts";

interface ReconciliationAnswer {
  classes: Record<string, number>;
  rows: ReconciliationRow[];
}

/** What each class says, for the legend and the rows' titles (docs/reconciliation.md). */
const CLASSES: Array<[string, string]> = [
  ["matched", "within 1% (and $0.01) of the vendor's figures"],
  ["vendor_only", "the vendor billed usage that never reached us"],
  ["ours_only", "we counted usage the vendor did not report"],
  ["count_mismatch", "a token count differs by more than 1%"],
  ["price_mismatch", "the counts agree and the cost does not: a rate or tier is wrong or stale"],
];

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
  return h("td", { class: `class-${row.class}` }, h("strong", {}, row.class), named);
}

const modelCell = (row: ReconciliationRow) => {
  const names = [...new Set([...row.our_models, ...row.vendor_models])].filter((name) => name !== row.model);
  return h(
    "td",
    {},
    value(row.model),
    names.length > 0 ? h("small", { class: "muted" }, " as ", names.join(", ")) : "",
  );
};

const versus = (ours: number, vendor: number) => numberCell(`${count(ours)} / ${count(vendor)}`);

/**
 * Reconciliation: per UTC day, vendor and model, our figures beside the vendor's own report, the
 * difference and its class (GET /usage/reconciliation), each day's totals with the drift, and runs.
 */
export const reconciliationPage: Page = async (context, into) => {
  const { org, params } = context;
  const query = reconciliationQueryOf(params);
  const [answer, { connections }] = await Promise.all([
    get<ReconciliationAnswer>(
      withQuery("/usage/reconciliation", {
        org: org.id,
        from: query.fromDay,
        to: dayAfter(query.toDay),
        provider: query.provider,
        model: query.model,
      }),
    ),
    get<{ connections: unknown[] }>(orgPath(org.id, "/connections?limit=100")),
  ]);
  const totals = dayTotals(answer.rows);
  const connectLink = h(
    "a",
    { href: hrefOf("settings/connections", { org: org.id }), "data-route": true },
    "Settings, Connections",
  );
  const empty =
    connections.length === 0
      ? h(
          "div",
          { class: "panel" },
          h("h2", {}, "No vendor is connected"),
          h(
            "p",
            {},
            "To put each vendor's own usage and cost reports beside ours, an admin connects the vendor under ",
            connectLink,
            " with its admin credential (an OpenAI admin key, an Anthropic Admin API key). The next morning's run reads the last 7 days; an admin can also start a run here.",
          ),
        )
      : h("p", {}, "No comparisons in these days yet. A run stores them: each morning's, or one started below.");
  fill(
    into,
    h("h1", {}, "Reconciliation"),
    h(
      "p",
      { class: "muted" },
      "Our figures beside each vendor's own report, per UTC day and model, and why they differ. Differences are the vendor's less ours.",
    ),
    reconciliationControls(context, query),
    answer.rows.length === 0
      ? empty
      : [
          h(
            "section",
            { class: "totals", "aria-label": "Rows by class" },
            CLASSES.map(([name, meaning]) =>
              h(
                "div",
                { title: meaning },
                h("span", { class: "muted" }, name),
                h("span", { class: "figure" }, count(answer.classes[name])),
              ),
            ),
          ),
          h("h2", {}, "Each day's drift"),
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
            ],
            totals.map((total) => [
              total.day,
              total.vendor,
              numberCell(count(total.rows)),
              numberCell(exactUsd(total.ours_usd)),
              numberCell(exactUsd(total.vendor_usd)),
              numberCell(signedUsd(total.difference_usd)),
              numberCell(
                total.drift ??
                  (total.awaiting_cost > 0 ? `awaiting the vendor's cost for ${total.awaiting_cost} rows` : "n/a"),
              ),
            ]),
          ),
          h("h2", {}, "By day, vendor and model"),
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
            answer.rows.map((row) => [
              row.day,
              row.vendor,
              modelCell(row),
              classCell(row),
              ...TOKEN_KINDS.map(([kind]) => versus(row.ours[kind], row.reported[kind])),
              numberCell(exactUsd(row.ours.cost_usd)),
              numberCell(row.reported.cost_usd === null ? "not reported yet" : exactUsd(row.reported.cost_usd)),
              numberCell(signedUsd(row.difference.cost_usd)),
            ]),
          ),
          h(
            "dl",
            { class: "facts" },
            CLASSES.map(([name, meaning]) => [h("dt", {}, name), h("dd", {}, meaning)]),
          ),
        ],
    runPanel(context, query),
  );
};
