import { BUDGET_PARAMS, MAX_BUDGETS_PER_ORGANIZATION } from "@usage-ingestion/budgets";
import { MAX_DIMENSIONS } from "@usage-ingestion/organizations";
import { RECONCILIATION_PARAMS } from "@usage-ingestion/reconciliation";
import { MAX_MESSAGE_ID_BYTES, MAX_PAGE_BYTES, RECORDS_PARAMS } from "@usage-ingestion/records";
import { COST_PARAMS, UNPRICED_PARAMS } from "@usage-ingestion/reports";
import { BulkRequestSchema, MAX_BODY_BYTES, TransactionSchema } from "@usage-ingestion/shared";
import type { JsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";
import { jsonSchemaOf } from "./json-schema.ts";
import { withManagementApi } from "./management/index.ts";
import {
  BudgetsAnswerSchema,
  CostReportSchema,
  ErrorResponseSchema,
  FailureResponseSchema,
  PartialSuccessResponseSchema,
  RecordDetailSchema,
  RecordsPageSchema,
  SuccessResponseSchema,
  UnpricedReportSchema,
} from "./response-schemas.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object, description: string) => ({ description, content: { "application/json": { schema } } });
const error = (description: string) => json(ref("ErrorResponse"), description);
const otlpObject = (description: string) => ({ type: "object", description });
/** An OTLP answer: protobuf or JSON, as the request was. */
const otlp = (description: string) => ({
  description,
  content: {
    "application/x-protobuf": { schema: { type: "string", format: "binary" } },
    "application/json": { schema: otlpObject("google.rpc.Status or ExportTraceServiceResponse (OTLP/JSON)") },
  },
});

function parameters(params: Record<string, v.GenericSchema>) {
  return Object.entries(params).map(([name, schema]) => {
    const { description, ...rest } = jsonSchemaOf(schema) as JsonSchema & { description?: string };
    return { name, in: "query", required: false, description, schema: rest };
  });
}

const readErrors = {
  "400": error("A parameter is invalid: `details[].field` names it."),
  "401": error("No key, an unknown or disabled key, or an ingest key."),
  "429": error("A report rate limit was reached (`rate_limited`); retry after `Retry-After` seconds."),
  "500": error("The reports could not be read; retry."),
};

/** The OpenAPI 3.1 document of every route, generated from the Valibot schemas the service validates with. */
export function openApiDocument(): Record<string, unknown> {
  return withManagementApi({
    openapi: "3.1.0",
    info: {
      title: "Usage ingestion and cost API",
      version: "1.0.0",
      description:
        "Send AI usage (POST /usage/transactions, ingest keys) and read its cost back (GET /usage/costs, " +
        "GET /usage/unpriced, GET /usage/budgets, GET /usage/records, read keys), and manage an organization " +
        "under /v1/orgs/{org} (admin keys, or a person's session from /auth/login). Money is exact: integer " +
        "nano-USD and decimal strings.",
    },
    components: {
      securitySchemes: {
        ingestKey: { type: "apiKey", in: "header", name: "X-Api-Key", description: "A key of scope `ingest`." },
        readKey: { type: "apiKey", in: "header", name: "X-Api-Key", description: "A key of scope `read`." },
      },
      schemas: {
        Transaction: jsonSchemaOf(TransactionSchema),
        BulkRequest: jsonSchemaOf(BulkRequestSchema),
        SuccessResponse: jsonSchemaOf(SuccessResponseSchema),
        PartialSuccessResponse: jsonSchemaOf(PartialSuccessResponseSchema),
        FailureResponse: jsonSchemaOf(FailureResponseSchema),
        ErrorResponse: jsonSchemaOf(ErrorResponseSchema),
        CostReport: jsonSchemaOf(CostReportSchema),
        UnpricedReport: jsonSchemaOf(UnpricedReportSchema),
        Budgets: jsonSchemaOf(BudgetsAnswerSchema),
        RecordsPage: jsonSchemaOf(RecordsPageSchema),
        Record: jsonSchemaOf(RecordDetailSchema),
      },
    },
    paths: {
      "/usage/transactions": {
        post: {
          summary: "Queue one transaction, or up to 1,000 in `{ transactions: [...] }`, for pricing.",
          security: [{ ingestKey: [] }],
          requestBody: {
            required: true,
            content: { "application/json": { schema: { oneOf: [ref("Transaction"), ref("BulkRequest")] } } },
          },
          responses: {
            "202": json(ref("SuccessResponse"), "Every transaction is queued."),
            "207": json(ref("PartialSuccessResponse"), "Some transactions are queued, some failed (see results)."),
            "400": error("Invalid JSON, or the request failed validation (`details` lists every field error)."),
            "401": error("No key, an unknown or disabled key, or a read key."),
            "413": error(`The body is larger than ${MAX_BODY_BYTES} bytes.`),
            "429": error(
              "A rate limit was reached (`rate_limited`): nothing was queued; retry after `Retry-After` seconds.",
            ),
            "500": {
              description: "Nothing could be queued (the request is safe to retry), or another internal error.",
              content: { "application/json": { schema: { oneOf: [ref("FailureResponse"), ref("ErrorResponse")] } } },
            },
          },
        },
      },
      "/v1/traces": {
        post: {
          summary: "OTLP/HTTP traces: each span of a model call becomes one transaction, queued for pricing.",
          description:
            "An ExportTraceServiceRequest as OpenTelemetry's OTLP/HTTP defines it (opentelemetry-proto v1.11.0), " +
            "binary or OTLP/JSON, optionally gzip. Spans that are not model calls are ignored. The mapping from " +
            "GenAI attributes to a transaction: docs/opentelemetry.md. Errors carry a google.rpc.Status body " +
            "(`code`, `message`) in the request's encoding.",
          security: [{ ingestKey: [] }],
          requestBody: {
            required: true,
            content: {
              "application/x-protobuf": { schema: { type: "string", format: "binary" } },
              "application/json": { schema: otlpObject("ExportTraceServiceRequest (OTLP/JSON)") },
            },
          },
          responses: {
            "200": otlp(
              "ExportTraceServiceResponse: empty when every model-call span was queued; `partialSuccess` " +
                "(`rejectedSpans`, `errorMessage`) counts those that could not be transactions, and says why.",
            ),
            "400": otlp("The body does not decode as an ExportTraceServiceRequest."),
            "401": otlp("No key, an unknown or disabled key, or a read key."),
            "413": otlp(`The body inflates past ${MAX_BODY_BYTES} bytes, or holds too many spans or model calls.`),
            "415": otlp("Neither application/x-protobuf nor application/json, or an encoding other than gzip."),
            "429": otlp(
              "A rate limit was reached, counting model-call spans as transactions; retry after `Retry-After`.",
            ),
            "503": otlp(
              "Not every model call could be queued, or the key store or the span pairing was unreachable; retry the export.",
            ),
          },
        },
      },
      "/usage/costs": {
        get: {
          summary: "Cost totals over a receive-time range [from, to), grouped and filtered.",
          description:
            "Also filters by `context.<dimension>=<value>` for each declared context dimension (at most " +
            `${MAX_DIMENSIONS}, set with \`admin org dimensions set\`); an undeclared one is a 400 that lists the ` +
            "declared ones. Unknown parameters are a 400.",
          security: [{ readKey: [] }],
          parameters: parameters(COST_PARAMS),
          responses: {
            "200": {
              description: "The report; with `format=csv`, the same rows as CSV with a final `total` line.",
              content: {
                "application/json": { schema: ref("CostReport") },
                "text/csv": { schema: { type: "string" } },
              },
            },
            ...readErrors,
          },
        },
      },
      "/usage/unpriced": {
        get: {
          summary: "The models and reasons that left transactions unpriced in [from, to), with counts.",
          security: [{ readKey: [] }],
          parameters: parameters(UNPRICED_PARAMS),
          responses: { "200": json(ref("UnpricedReport"), "Most transactions first."), ...readErrors },
        },
      },
      "/usage/budgets": {
        get: {
          summary:
            "The budgets a call with the given values counts towards, each with its spent in the current period.",
          description:
            "Each filter keeps the budgets whose scope names that value or leaves the field open; also " +
            "`context.<declared dimension>=<value>`. Every budget of the organization (at most " +
            `${MAX_BUDGETS_PER_ORGANIZATION}) when none is given. Spent is exact, from the same records as ` +
            "`/usage/costs`. Unknown parameters are a 400; a spent that would read past the report ceilings is a 422.",
          security: [{ readKey: [] }],
          parameters: parameters(BUDGET_PARAMS),
          responses: {
            "200": json(ref("Budgets"), "The budgets, in id order."),
            "422": error("Reading the spent would pass the report ceilings (`report_too_large`)."),
            ...readErrors,
          },
        },
      },
      "/usage/records": {
        get: {
          summary:
            "The organization's stored records in [from, to), newest received first, filtered like /usage/costs.",
          description:
            "Also filters by `context.<dimension>=<value>` for each declared context dimension. A page holds at " +
            `most \`limit\` records and at most ${MAX_PAGE_BYTES} bytes of them; \`next_page_token\` is present exactly ` +
            "when more follow. Every page of a listing reads the records as they were at its first page (within an " +
            "hour), so records stored meanwhile neither shift nor join it. Unknown parameters are a 400; a listing " +
            "that would read past the report ceilings is a 422.",
          security: [{ readKey: [] }],
          parameters: parameters(RECORDS_PARAMS),
          responses: {
            "200": json(ref("RecordsPage"), "Newest received first (the message id breaks ties)."),
            "422": error("The listing would read past the report ceilings (`report_too_large`): narrow it."),
            ...readErrors,
          },
        },
      },
      "/usage/records/{message_id}": {
        get: {
          summary: "One record: the transaction as sent, its status, cost and line items with each rate's source.",
          security: [{ readKey: [] }],
          parameters: [
            {
              name: "message_id",
              in: "path",
              required: true,
              description: "The message id `POST /usage/transactions` answered for the transaction.",
              schema: { type: "string", minLength: 1, maxLength: MAX_MESSAGE_ID_BYTES },
            },
          ],
          responses: {
            "200": json(ref("Record"), "The record."),
            "404": error("No record with this id in the key's organization (`not_found`)."),
            ...readErrors,
            "400": error("The id could never be a record's (`details[].field` is `message_id`)."),
          },
        },
      },
      "/usage/reconciliation": {
        get: {
          summary: "Our figures beside each connected vendor's own report, per vendor, UTC day and model, classed.",
          description:
            "Rows are written by the reconciliation job (docs/reconciliation.md): `matched`, `vendor_only`, " +
            "`ours_only`, `count_mismatch` or `price_mismatch` (with the component). Whole UTC days, at most 92. " +
            "Unknown parameters are a 400; a read past the report ceilings is a 422.",
          security: [{ readKey: [] }],
          parameters: parameters(RECONCILIATION_PARAMS),
          responses: {
            "200": json(ref("Reconciliation"), "The rows by day, vendor and model, and how many each class holds."),
            "422": error("The read would pass the report ceilings (`report_too_large`): narrow it."),
            ...readErrors,
          },
        },
      },
      "/dashboard": {
        get: {
          summary: "The cost dashboard (HTML); it asks for a read key.",
          responses: { "200": { description: "The page.", content: { "text/html": { schema: { type: "string" } } } } },
        },
      },
      "/openapi.json": {
        get: {
          summary: "This document.",
          responses: { "200": json({ type: "object" }, "OpenAPI 3.1.") },
        },
      },
      "/healthz": {
        get: {
          summary: "Liveness.",
          responses: {
            "200": json(
              { type: "object", properties: { status: { const: "ok" } }, required: ["status"] },
              "The process is up.",
            ),
          },
        },
      },
    },
  });
}
