import * as v from "valibot";
import { usdNumberToNanos } from "./vendor-amounts.ts";
import { checkDayRange, type ReadRequest, wholeDayOf } from "./vendor-days.ts";
import { FigureSheet, NOT_PER_MODEL, type PriceComponent, type VendorFigure } from "./vendor-figures.ts";
import { VendorAnswerError, type VendorHttp } from "./vendor-http.ts";
import { tokenCount as count, cursorPage, groupId, readCursorPages, vendorUrl } from "./vendor-pages.ts";
import { VENDOR_RULES } from "./vendors.ts";

/*
 * OpenAI's Usage API and Costs API (platform.openai.com/docs/api-reference/usage, read 2026-11-29):
 * GET /v1/organization/usage/completions and GET /v1/organization/costs, an admin key as a bearer token;
 * `start_time` (inclusive) and `end_time` (exclusive) in Unix seconds, `bucket_width=1d`, `group_by`,
 * `limit` (buckets per page: at most 31 for daily usage, 180 for costs) and `page` (the previous answer's
 * `next_page`, with `has_more`). A page is `{ object: "page", data: [bucket], has_more, next_page }`, a
 * bucket `{ object: "bucket", start_time, end_time, results }`. Usage results carry `input_tokens`
 * (cached ones included), `input_cached_tokens`, `output_tokens`, `num_model_requests` and, grouped by
 * model, `model`; cost results carry `amount: { value, currency }` and, grouped by line item,
 * `line_item` ("gpt-4o-2024-08-06, input"). `group_by` is repeated for each field; both reports group by
 * `project_id` (the usage also by `api_key_id`, the costs not), and a result grouped by it names it.
 */
const Page = <T extends v.GenericSchema>(result: T) =>
  cursorPage(
    v.looseObject({
      start_time: v.number(),
      end_time: v.number(),
      results: v.pipe(v.array(result), v.maxLength(100_000)),
    }),
  );
const UsagePage = Page(
  v.looseObject({
    model: v.optional(v.nullable(v.string())),
    project_id: groupId,
    input_tokens: count,
    input_cached_tokens: count,
    output_tokens: count,
  }),
);
const CostPage = Page(
  v.looseObject({
    amount: v.looseObject({ value: v.number(), currency: v.optional(v.string(), "usd") }),
    line_item: v.optional(v.nullable(v.string())),
    project_id: groupId,
  }),
);

const COMPONENTS: Record<string, PriceComponent> = {
  input: "input",
  "cached input": "cache_read",
  output: "output",
};

/** "gpt-4o-2024-08-06, cached input" -> the model and the component; a line item naming no model stays whole. */
export function openAiLineItem(lineItem: string | null | undefined): { model: string; component?: PriceComponent } {
  const match = lineItem ? /^(.+), ([^,]+)$/.exec(lineItem) : null;
  if (!match) return { model: NOT_PER_MODEL };
  const component = COMPONENTS[(match[2] as string).trim().toLowerCase()];
  return { model: (match[1] as string).trim(), ...(component ? { component } : {}) };
}

export interface OpenAiReader {
  http: VendorHttp;
  /** RECONCILE_OPENAI_BASE_URL: `https://api.openai.com` unless a proxy or a test stands in. */
  baseUrl: string;
  now: Date;
}

/**
 * Daily usage by model and daily costs by line item, folded into one figure per day and model; asked for a
 * split by `project_id`, both reports are grouped by it too, and each figure names its project.
 */
export async function readOpenAi(
  reader: OpenAiReader,
  credential: string,
  range: ReadRequest,
): Promise<VendorFigure[]> {
  checkDayRange(range);
  // Only the id both reports group by splits (VENDOR_RULES.openai.splitBy).
  const split = range.split === VENDOR_RULES.openai.splitBy ? range.split : undefined;
  const headers = { authorization: `Bearer ${credential}`, accept: "application/json" };
  const url = (path: string, params: Array<[string, string]>) =>
    vendorUrl(reader.baseUrl, path, [
      ["start_time", String(range.from.getTime() / 1000)],
      ["end_time", String(range.to.getTime() / 1000)],
      ["bucket_width", "1d"],
      ...params,
      ...(split ? [["group_by", split] as [string, string]] : []),
    ]);
  const sheet = new FigureSheet(split !== undefined);
  const usageUrl = url("/v1/organization/usage/completions", [
    ["group_by", "model"],
    ["limit", "31"],
  ]);
  const usage = await readCursorPages(reader.http, "openai", usageUrl, headers, UsagePage, "usage");
  for (const bucket of usage) {
    const day = wholeDayOf(bucket.start_time * 1000, bucket.end_time * 1000, reader.now);
    if (!day) continue;
    for (const result of bucket.results) {
      sheet.addTokens(
        day,
        result.model ?? NOT_PER_MODEL,
        {
          input_tokens: result.input_tokens ?? 0,
          cached_tokens: result.input_cached_tokens ?? 0,
          output_tokens: result.output_tokens ?? 0,
        },
        result.project_id,
      );
    }
  }
  const costUrl = url("/v1/organization/costs", [
    ["group_by", "line_item"],
    ["limit", "180"],
  ]);
  const costs = await readCursorPages(reader.http, "openai", costUrl, headers, CostPage, "costs");
  for (const bucket of costs) {
    const day = wholeDayOf(bucket.start_time * 1000, bucket.end_time * 1000, reader.now);
    if (!day) continue;
    for (const result of bucket.results) {
      if (result.amount.currency.toLowerCase() !== "usd") {
        throw new VendorAnswerError(`openai costs: an amount in ${result.amount.currency.slice(0, 8)}, not USD`);
      }
      const { model, component } = openAiLineItem(result.line_item);
      sheet.addCost(day, model, usdNumberToNanos(result.amount.value), component, result.project_id);
    }
  }
  return sheet.figures();
}
