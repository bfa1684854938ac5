import {
  BudgetChangeSchema,
  BudgetCreateSchema,
  MAX_BUDGETS_PER_ORGANIZATION,
  MAX_ROLLING_DAYS,
} from "@usage-ingestion/budgets";
import { MAX_PAGE_LIMIT } from "@usage-ingestion/shared";
import type { JsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { jsonSchemaOf } from "../json-schema.ts";
import { BudgetStatusSchema } from "../response-schemas.ts";

/** The budget schema's own checks, said in JSON Schema (json-schema.ts throws on a check left unsaid). */
const BUDGET_CHECKS: Record<string, JsonSchema> = {
  'must be a decimal string of US dollars with at most 9 decimal places, such as "250.00"': {
    pattern: "^\\d{1,10}(\\.\\d{1,9})?$",
  },
  "must be above zero": { description: "Above zero." },
  "must be at most 1000000000 (one billion dollars)": { description: "At most one billion dollars." },
  [`must be day, week, month, or a rolling window Nd of 1 to ${MAX_ROLLING_DAYS} days (such as 30d)`]: {
    pattern: "^(day|week|month|[1-9]\\d{0,2}d)$",
    description: `\`day\`, \`week\`, \`month\`, or a rolling window \`Nd\` of 1 to ${MAX_ROLLING_DAYS} days.`,
  },
  "must be an IANA time zone name such as Europe/Paris or UTC": { description: "An IANA time zone name." },
  "must not name a percent twice": { uniqueItems: true },
  "must be 1-64 letters, digits, _ or -": { pattern: "^[A-Za-z0-9_-]{1,64}$" },
};

const stamps = {
  created_at: v.string(),
  updated_at: v.string(),
  etag: v.pipe(v.string(), v.description("The budget's version: send it as If-Match to change it safely.")),
};
const {
  current_period: _p,
  spent_usd: _s,
  remaining_usd: _r,
  percent: _c,
  thresholds_crossed: _t,
  forecast_usd: _f,
  as_of: _a,
  ...stored
} = BudgetStatusSchema.entries;
const BudgetSchema = v.object({ ...stored, ...stamps });
const BudgetWithStatusSchema = v.object({ ...BudgetStatusSchema.entries, ...stamps });

const error = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } },
});
const json = (schema: v.GenericSchema, description: string, etag = false) => ({
  description,
  ...(etag ? { headers: { ETag: { description: "The budget's etag, quoted.", schema: { type: "string" } } } } : {}),
  content: { "application/json": { schema: jsonSchemaOf(schema) } },
});
const body = (schema: v.GenericSchema) => ({
  required: true,
  content: { "application/json": { schema: jsonSchemaOf(schema, BUDGET_CHECKS) } },
});
const org = { name: "org", in: "path", required: true, schema: { type: "string" } };
const id = { name: "id", in: "path", required: true, schema: { type: "string" } };
const ifMatch = {
  name: "If-Match",
  in: "header",
  required: false,
  description: "The etag read last; another one (someone changed the budget since) is a 409 and nothing changes.",
  schema: { type: "string" },
};
const page = [
  {
    name: "limit",
    in: "query",
    required: false,
    schema: { type: "integer", minimum: 1, maximum: MAX_PAGE_LIMIT, default: 100 },
  },
  { name: "page_token", in: "query", required: false, schema: { type: "string" } },
];
const common = {
  "401": error("No admin key or session, or a bad one."),
  "403": error("A member whose role may not do this (`forbidden`)."),
  "404": error("No such organization for this caller, or no such budget."),
  "429": error("A rate limit was reached; retry after `Retry-After` seconds."),
};
const security =
  "With an `admin` key (`X-Api-Key`) or a console session; reading needs the role `viewer`, changing `admin`.";

/** `/v1/orgs/{org}/budgets` and `/v1/orgs/{org}/budgets/{id}` (docs/management-api.md, docs/budgets.md). */
export const budgetPaths = {
  "/v1/orgs/{org}/budgets": {
    get: {
      summary: "The organization's budgets, in id order, each with its status now (as GET /usage/budgets).",
      description: security,
      parameters: [org, ...page],
      responses: {
        "200": json(
          v.object({ budgets: v.array(BudgetWithStatusSchema), next_page_token: v.optional(v.string()) }),
          "A page of budgets; `next_page_token` is present when more follow.",
        ),
        "400": error("`limit` or `page_token` is invalid."),
        "422": error("Reading the spent would pass the report ceilings (`report_too_large`)."),
        ...common,
      },
    },
    post: {
      summary: `Create a budget, as \`admin budget create\` does (at most ${MAX_BUDGETS_PER_ORGANIZATION} per organization).`,
      description: `${security} Absent fields take their defaults: no name, the whole organization, UTC, 50/80/100.`,
      parameters: [org],
      requestBody: body(BudgetCreateSchema),
      responses: {
        "201": json(BudgetSchema, "The budget as stored.", true),
        "400": error(
          "The body failed validation (`details` names each field), or the organization holds the most budgets.",
        ),
        "409": error("A budget with this `id` already exists."),
        ...common,
      },
    },
  },
  "/v1/orgs/{org}/budgets/{id}": {
    get: {
      summary: "One budget with its status now.",
      description: security,
      parameters: [org, id],
      responses: {
        "200": json(BudgetWithStatusSchema, "The budget and its status.", true),
        "422": error("Reading the spent would pass the report ceilings (`report_too_large`)."),
        ...common,
      },
    },
    patch: {
      summary: "Replace the fields given; the result is validated whole, as a new budget would be.",
      description: security,
      parameters: [org, id, ifMatch],
      requestBody: body(BudgetChangeSchema),
      responses: {
        "200": json(BudgetSchema, "The budget as stored now.", true),
        "400": error("The body failed validation, or named no field."),
        "409": error("`If-Match` names another version (`conflict`): read the budget again."),
        ...common,
      },
    },
    delete: {
      summary: "Delete the budget; the alerts it recorded stay.",
      description: security,
      parameters: [org, id, ifMatch],
      responses: {
        "204": { description: "Deleted." },
        "409": error("`If-Match` names another version (`conflict`)."),
        ...common,
      },
    },
  },
};
