import type { BudgetStatus } from "@usage-ingestion/budgets";
import type { RecordDetail, RecordsPage } from "@usage-ingestion/records";
import type { CostReport, UnpricedReport } from "@usage-ingestion/reports";
import { ROLLUP_QUANTITIES } from "@usage-ingestion/reports";
import {
  ERROR_CODES,
  type ErrorResponse,
  type FailureResponse,
  FIELD_ERROR_CODES,
  type PartialSuccessResponse,
  RECORD_STATUSES,
  type SuccessResponse,
} from "@usage-ingestion/shared";
import * as v from "valibot";

/**
 * The responses as Valibot schemas, for the OpenAPI document. Each is tied to the TypeScript type the code
 * answers with (the `Same` checks below), so the document cannot drift from the responses unnoticed.
 */
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const decimalText = v.pipe(v.string(), v.regex(/^\d+\.\d{9}$/), v.description("USD, nine decimal places, exact."));
const nanosText = v.pipe(v.string(), v.regex(/^\d+$/), v.description("Integer nano-USD, exact, as a string."));
const picoDecimalText = v.pipe(
  v.string(),
  v.regex(/^\d+\.\d{12}$/),
  v.description("USD, twelve decimal places, exact: the vendor's own figure (decision 0031)."),
);

const FieldErrorSchema = v.object({ field: v.string(), code: v.picklist(FIELD_ERROR_CODES), message: v.string() });
const ErrorObjectSchema = v.object({
  code: v.picklist(ERROR_CODES),
  message: v.string(),
  details: v.optional(v.array(FieldErrorSchema)),
});
export const ErrorResponseSchema = v.object({ error: ErrorObjectSchema });

const ResultSchema = v.object({
  transaction_index: count,
  message_id: v.nullable(v.string()),
  error: v.optional(v.string()),
});
export const SuccessResponseSchema = v.object({
  status: v.literal("queued"),
  events_queued: count,
  message: v.string(),
  results: v.array(ResultSchema),
});
export const PartialSuccessResponseSchema = v.object({
  status: v.literal("partial_success"),
  events_queued: count,
  events_failed: count,
  message: v.string(),
  results: v.array(ResultSchema),
});
export const FailureResponseSchema = v.object({
  error: ErrorObjectSchema,
  events_failed: count,
  results: v.array(ResultSchema),
});

const QuantitiesSchema = v.object(
  Object.fromEntries(ROLLUP_QUANTITIES.map((name) => [name, v.pipe(v.number(), v.minValue(0))])) as unknown as Record<
    (typeof ROLLUP_QUANTITIES)[number],
    v.GenericSchema<number>
  >,
);
const figures = {
  cost_usd: decimalText,
  cost_nanos: nanosText,
  transactions: v.pipe(count, v.description("Billed records (priced and unpriced).")),
  unpriced_transactions: count,
  conflict_transactions: v.pipe(count, v.description("Records with a reused transaction_id and other content.")),
  quantities: QuantitiesSchema,
  provider_reported_transactions: v.pipe(
    count,
    v.description("Priced records that carry the vendor's own cost (decision 0031): the set the next four cover."),
  ),
  provider_reported_cost_usd: v.pipe(picoDecimalText, v.description("The vendor's own cost of those records.")),
  provider_reported_cost_picos: v.pipe(
    v.string(),
    v.regex(/^\d+$/),
    v.description("The same in integer pico-USD, as a string."),
  ),
  cost_usd_where_provider_reported: v.pipe(decimalText, v.description("Our cost of exactly those records.")),
  cost_nanos_where_provider_reported: nanosText,
  provider_reported_difference_usd: v.pipe(
    v.string(),
    v.regex(/^-?\d+\.\d{12}$/),
    v.description("The vendor's cost less ours, over those records: USD, twelve places, signed."),
  ),
};
const text = v.record(v.string(), v.string());
export const CostReportSchema = v.object({
  from: v.string(),
  to: v.string(),
  group_by: v.array(v.string()),
  filters: text,
  dimensions: v.pipe(v.array(v.string()), v.description("The organization's declared context dimensions.")),
  groups: v.array(v.object({ key: v.record(v.string(), v.nullable(v.string())), ...figures })),
  totals: v.object(figures),
});
export const UnpricedReportSchema = v.object({
  from: v.string(),
  to: v.string(),
  unpriced: v.array(
    v.object({
      provider: v.string(),
      model: v.string(),
      model_tier: v.nullable(v.string()),
      reason: v.string(),
      transactions: count,
    }),
  ),
  total_transactions: count,
});

const signedDecimalText = v.pipe(
  v.string(),
  v.regex(/^-?\d+\.\d{9}$/),
  v.description("USD, nine decimal places, exact."),
);
const percentText = v.pipe(v.string(), v.regex(/^\d+\.\d{2}$/), v.description("Percent, two decimal places."));
export const BudgetStatusSchema = v.object({
  id: v.string(),
  name: v.nullable(v.string()),
  scope: v.object({
    customer: v.optional(v.string()),
    provider: v.optional(v.string()),
    model: v.optional(v.string()),
    dimension: v.optional(v.object({ name: v.string(), value: v.string() })),
  }),
  amount_usd: decimalText,
  period: v.pipe(v.string(), v.description("`day`, `week`, `month`, or a rolling window `Nd`.")),
  time_zone: v.pipe(v.string(), v.description("The IANA time zone periods are counted in.")),
  thresholds: v.array(v.number()),
  current_period: v.pipe(
    v.object({ start: v.string(), end: v.string() }),
    v.description("The current period, [start, end), ISO 8601 instants."),
  ),
  spent_usd: decimalText,
  remaining_usd: v.pipe(signedDecimalText, v.description("amount_usd - spent_usd; negative once overspent.")),
  percent: percentText,
  thresholds_crossed: v.array(v.number()),
  forecast_usd: v.pipe(
    v.nullable(decimalText),
    v.description("Spent carried on linearly to the period's end; null in the first tenth of the period."),
  ),
  as_of: v.string(),
});
export const BudgetsAnswerSchema = v.object({ as_of: v.string(), budgets: v.array(BudgetStatusSchema) });

const LineItemSchema = v.object({
  usage_type: v.string(),
  component: v.pipe(v.string(), v.description("What was counted: input, cache_read, output, generated, ...")),
  quantity: v.number(),
  unit: v.string(),
  unit_price_usd: v.pipe(v.string(), v.description("The rate: USD for `unit_price_per` units, a decimal string.")),
  unit_price_per: v.number(),
  cost_usd: decimalText,
  price_source: v.pipe(
    v.string(),
    v.description("Where the rate came from: custom prices, the platform list, the price table or the catalog."),
  ),
});
const recordFields = {
  message_id: v.string(),
  received_at: v.pipe(v.string(), v.description("When the gateway accepted it, ISO 8601 UTC.")),
  provider: v.string(),
  model: v.string(),
  model_tier: v.nullable(v.string()),
  status: v.picklist(RECORD_STATUSES),
  unpriced_reason: v.nullable(v.string()),
  cost_usd: v.pipe(v.nullable(decimalText), v.description("Exact; null unless priced.")),
  provider_reported_cost: v.pipe(
    v.nullable(picoDecimalText),
    v.description("The cost the vendor reported for the call; null when it reported none. Never part of cost_usd."),
  ),
  context: v.pipe(v.unknown(), v.description("As sent and stored.")),
  usage: v.pipe(v.unknown(), v.description("As sent and stored.")),
  transaction_id: v.nullable(v.string()),
  duplicate_of: v.pipe(
    v.nullable(v.string()),
    v.description("For duplicate and conflict: the message id of the billed record."),
  ),
  line_items: v.array(LineItemSchema),
};
const RecordSchema = v.object(recordFields);
export const RecordsPageSchema = v.object({
  records: v.array(RecordSchema),
  next_page_token: v.optional(v.string()),
});
export const RecordDetailSchema = v.object({
  ...recordFields,
  provider_usage_raw: v.pipe(v.unknown(), v.description("As sent and stored; null when none was sent.")),
});

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Out<T extends v.GenericSchema> = v.InferOutput<T>;
export const schemasMatchTypes: [
  Same<Out<typeof ErrorResponseSchema>, ErrorResponse>,
  Same<Out<typeof SuccessResponseSchema>, SuccessResponse>,
  Same<Out<typeof PartialSuccessResponseSchema>, PartialSuccessResponse>,
  Same<Out<typeof FailureResponseSchema>, FailureResponse>,
  Same<Out<typeof UnpricedReportSchema>["unpriced"], UnpricedReport["unpriced"]>,
  Same<Out<typeof CostReportSchema>["totals"], CostReport["totals"]>,
  Same<Out<typeof BudgetsAnswerSchema>["budgets"][number]["current_period"], BudgetStatus["current_period"]>,
  Same<Out<typeof RecordsPageSchema>, RecordsPage>,
  Same<Out<typeof RecordDetailSchema>, RecordDetail>,
] = [true, true, true, true, true, true, true, true, true];
