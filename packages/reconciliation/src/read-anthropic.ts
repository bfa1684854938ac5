import * as v from "valibot";
import { centsToNanos } from "./vendor-amounts.ts";
import { checkDayRange, type ReadRequest, wholeDayOf } from "./vendor-days.ts";
import { FigureSheet, NOT_PER_MODEL, type PriceComponent, type VendorFigure } from "./vendor-figures.ts";
import { VendorAnswerError, type VendorHttp } from "./vendor-http.ts";
import { tokenCount as count, cursorPage, groupId, readCursorPages, vendorUrl } from "./vendor-pages.ts";
import { VENDOR_RULES } from "./vendors.ts";

/*
 * Anthropic's Admin API (platform.claude.com/docs/en/api/admin/usage_report and .../admin/cost_report, read
 * 2026-11-29): an Admin API key in `x-api-key` with `anthropic-version`; `starting_at` and `ending_at` as
 * RFC 3339, `bucket_width=1d`, `group_by[]`, `limit` (daily buckets per page, at most 31) and `page` (the
 * previous answer's `next_page`, with `has_more`). A report is `{ data: [{ starting_at, ending_at, results
 * }], has_more, next_page }`. Usage results (grouped by model) carry `uncached_input_tokens`,
 * `cache_read_input_tokens`, `cache_creation: { ephemeral_5m_input_tokens, ephemeral_1h_input_tokens }`,
 * `output_tokens`, `server_tool_use` and `model`. Cost results (grouped by description) carry `amount`, a
 * decimal string of cents, `currency`, `cost_type`, `model` and `token_type`; Priority Tier is not in it.
 * Both reports group by `workspace_id` (the usage also by `api_key_id`, the costs not), and a result
 * grouped by it names it (null for the default workspace).
 */
const Report = <T extends v.GenericSchema>(result: T) =>
  cursorPage(
    v.looseObject({
      starting_at: v.string(),
      ending_at: v.string(),
      results: v.pipe(v.array(result), v.maxLength(100_000)),
    }),
  );
const UsageReport = Report(
  v.looseObject({
    model: v.optional(v.nullable(v.string())),
    workspace_id: groupId,
    uncached_input_tokens: count,
    cache_read_input_tokens: count,
    cache_creation: v.optional(
      v.nullable(v.looseObject({ ephemeral_5m_input_tokens: count, ephemeral_1h_input_tokens: count })),
    ),
    output_tokens: count,
  }),
);
const CostReport = Report(
  v.looseObject({
    amount: v.string(),
    currency: v.optional(v.nullable(v.string()), "USD"),
    model: v.optional(v.nullable(v.string())),
    token_type: v.optional(v.nullable(v.string())),
    workspace_id: groupId,
  }),
);

const COMPONENTS: Record<string, PriceComponent> = {
  uncached_input_tokens: "input",
  cache_read_input_tokens: "cache_read",
  "cache_creation.ephemeral_5m_input_tokens": "cache_write",
  "cache_creation.ephemeral_1h_input_tokens": "cache_write",
  output_tokens: "output",
};

export interface AnthropicReader {
  http: VendorHttp;
  /** RECONCILE_ANTHROPIC_BASE_URL: `https://api.anthropic.com` unless a proxy or a test stands in. */
  baseUrl: string;
  now: Date;
}

/**
 * The daily usage report by model and the daily cost report by description, one figure per day and model;
 * asked for a split by `workspace_id`, both reports are grouped by it too, and each figure names its
 * workspace.
 */
export async function readAnthropic(
  reader: AnthropicReader,
  credential: string,
  range: ReadRequest,
): Promise<VendorFigure[]> {
  checkDayRange(range);
  // Only the id both reports group by splits (VENDOR_RULES.anthropic.splitBy).
  const split = range.split === VENDOR_RULES.anthropic.splitBy ? range.split : undefined;
  const headers = { "x-api-key": credential, "anthropic-version": "2023-06-01", accept: "application/json" };
  const url = (path: string, params: Array<[string, string]>) =>
    vendorUrl(reader.baseUrl, path, [
      ["starting_at", range.from.toISOString()],
      ["ending_at", range.to.toISOString()],
      ["bucket_width", "1d"],
      ["limit", "31"],
      ...params,
      ...(split ? [["group_by[]", split] as [string, string]] : []),
    ]);
  const dayOf = (bucket: { starting_at: string; ending_at: string }) =>
    wholeDayOf(Date.parse(bucket.starting_at), Date.parse(bucket.ending_at), reader.now);
  const sheet = new FigureSheet(split !== undefined);
  const usageUrl = url("/v1/organizations/usage_report/messages", [["group_by[]", "model"]]);
  const usage = await readCursorPages(
    reader.http,
    "anthropic",
    usageUrl,
    headers,
    UsageReport,
    "usage report",
    "report",
  );
  for (const bucket of usage) {
    const day = dayOf(bucket);
    if (!day) continue;
    for (const result of bucket.results) {
      const writes = result.cache_creation;
      sheet.addTokens(
        day,
        result.model ?? NOT_PER_MODEL,
        {
          input_tokens: result.uncached_input_tokens ?? 0,
          cached_tokens: result.cache_read_input_tokens ?? 0,
          cache_creation_input_tokens:
            (writes?.ephemeral_5m_input_tokens ?? 0) + (writes?.ephemeral_1h_input_tokens ?? 0),
          output_tokens: result.output_tokens ?? 0,
        },
        result.workspace_id,
      );
    }
  }
  const costUrl = url("/v1/organizations/cost_report", [["group_by[]", "description"]]);
  const costs = await readCursorPages(reader.http, "anthropic", costUrl, headers, CostReport, "cost report", "report");
  for (const bucket of costs) {
    const day = dayOf(bucket);
    if (!day) continue;
    for (const result of bucket.results) {
      const currency = result.currency ?? "USD";
      if (currency.toUpperCase() !== "USD") {
        throw new VendorAnswerError(`anthropic cost report: an amount in ${currency.slice(0, 8)}, not USD`);
      }
      const component = result.token_type ? COMPONENTS[result.token_type] : undefined;
      sheet.addCost(day, result.model ?? NOT_PER_MODEL, centsToNanos(result.amount), component, result.workspace_id);
    }
  }
  return sheet.figures();
}
