import { get, withQuery } from "../api.ts";
import type { Page, PageContext } from "../context.ts";
import { fill, h, numberCell, table, time, value } from "../dom.ts";
import { exactUsd } from "../exact-usd.ts";
import { hrefOf } from "../route.ts";
import { filtersOf, rangeOf, reportControls, reportFields } from "./report-controls.ts";

interface LineItem {
  usage_type: string;
  component: string;
  quantity: number;
  unit: string;
  unit_price_usd: string;
  unit_price_per: number;
  cost_usd: string;
  price_source: string;
}

interface TransactionRecord {
  message_id: string;
  received_at: string;
  provider: string;
  model: string;
  model_tier: string | null;
  status: string;
  unpriced_reason: string | null;
  cost_usd: string | null;
  context: unknown;
  usage: unknown;
  transaction_id: string | null;
  duplicate_of: string | null;
  line_items: LineItem[];
  provider_usage_raw?: unknown;
}

const PAGE_SIZE = "50";

const WHY: Record<string, string> = {
  priced: "priced from the rates below",
  unpriced: "not priced",
  duplicate: "a repeat of a transaction already billed (same transaction_id and content): not billed again",
  conflict: "reuses a transaction_id with other content: never billed, listed to be looked into",
};

const customerOf = (record: TransactionRecord) =>
  (record.context as Record<string, unknown> | null)?.billable_customer_id ?? null;

/** JSON as text, indented, for usage and context as they were sent. */
const json = (data: unknown) => h("pre", { class: "json" }, JSON.stringify(data, null, 2));

function detail(context: PageContext, record: TransactionRecord) {
  const back = hrefOf(
    "transactions",
    (() => {
      const params = new URLSearchParams(context.params);
      params.delete("record");
      return params;
    })(),
  );
  const status = `${record.status}: ${WHY[record.status] ?? ""}${record.unpriced_reason ? ` (${record.unpriced_reason})` : ""}`;
  return [
    h("p", {}, h("a", { href: back, "data-route": true }, "Back to the list")),
    h("h1", {}, "Transaction ", value(record.message_id)),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Received"),
      h("dd", {}, time(record.received_at)),
      h("dt", {}, "Provider"),
      h("dd", {}, value(record.provider)),
      h("dt", {}, "Model"),
      h("dd", {}, value(record.model)),
      h("dt", {}, "Tier"),
      h("dd", {}, value(record.model_tier)),
      h("dt", {}, "Status"),
      h("dd", { id: "record-status" }, status),
      h("dt", {}, "Cost"),
      h("dd", { id: "record-cost" }, record.cost_usd === null ? "none" : exactUsd(record.cost_usd)),
      h("dt", {}, "Transaction id"),
      h("dd", {}, value(record.transaction_id)),
      record.duplicate_of ? [h("dt", {}, "Billed as"), h("dd", {}, value(record.duplicate_of))] : null,
    ),
    h("h2", {}, "Line items"),
    record.line_items.length === 0
      ? h("p", {}, "No line items: nothing was priced.")
      : table(
          "Line items",
          [
            "Usage",
            "Component",
            ["Quantity", "number"],
            "Unit",
            ["Rate (USD)", "number"],
            ["Cost (USD)", "number"],
            "Rate from",
          ],
          record.line_items.map((item) => [
            value(item.usage_type),
            value(item.component),
            numberCell(item.quantity.toLocaleString()),
            value(item.unit),
            numberCell(`${exactUsd(item.unit_price_usd)} per ${item.unit_price_per.toLocaleString()}`),
            numberCell(exactUsd(item.cost_usd)),
            value(item.price_source),
          ]),
        ),
    h("h2", {}, "Context"),
    json(record.context),
    h("h2", {}, "Usage as sent"),
    json(record.usage),
    record.provider_usage_raw ? [h("h2", {}, "Provider usage as sent"), json(record.provider_usage_raw)] : null,
  ];
}

/**
 * Transactions: the latest records (GET /usage/records) with the filters of Costs and a status, a page at
 * a time; one record (`?record=`) opens to its line items, each rate and where it came from, its status
 * and why.
 */
export const transactionsPage: Page = async (context, into) => {
  const { org, params } = context;
  const opened = params.get("record");
  if (opened) {
    const record = await get<TransactionRecord>(
      withQuery(`/usage/records/${encodeURIComponent(opened)}`, { org: org.id }),
    );
    fill(into, detail(context, record));
    return;
  }
  const fields = await reportFields(org.id);
  const range = rangeOf(params);
  const answer = await get<{ records: TransactionRecord[]; next_page_token?: string }>(
    withQuery("/usage/records", {
      org: org.id,
      from: range.from,
      to: range.to,
      ...filtersOf(params, fields),
      status: params.get("status") ?? undefined,
      limit: PAGE_SIZE,
      page_token: params.get("page_token") ?? undefined,
    }),
  );
  const link = (changes: Record<string, string | undefined>, text: string) => {
    const next = new URLSearchParams(params);
    for (const [name, entry] of Object.entries(changes)) {
      if (entry) next.set(name, entry);
      else next.delete(name);
    }
    return h("a", { href: hrefOf("transactions", next), "data-route": true }, text);
  };
  fill(
    into,
    h("h1", {}, "Transactions"),
    reportControls(context, { fields, range, status: true }),
    answer.records.length === 0
      ? h("p", {}, "No transactions match.")
      : table(
          "Transactions, newest first",
          ["Received", "Provider", "Model", "Customer", "Status", ["Cost (USD)", "number"], "Details"],
          answer.records.map((record) => [
            time(record.received_at),
            value(record.provider),
            value(record.model),
            value(customerOf(record)),
            record.unpriced_reason ? `${record.status} (${record.unpriced_reason})` : record.status,
            numberCell(record.cost_usd === null ? "" : exactUsd(record.cost_usd)),
            h(
              "a",
              {
                href: hrefOf("transactions", { ...Object.fromEntries(params), record: record.message_id }),
                "data-route": true,
                "aria-label": `Open transaction ${record.message_id}`,
              },
              "Open",
            ),
          ]),
        ),
    h(
      "div",
      { class: "actions" },
      params.get("page_token") ? link({ page_token: undefined }, "First page") : null,
      answer.next_page_token ? link({ page_token: answer.next_page_token }, "Next page") : null,
    ),
  );
};
