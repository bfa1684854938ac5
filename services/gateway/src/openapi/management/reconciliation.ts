import {
  CLASSES,
  CONNECTION_VENDORS,
  PRICE_COMPONENTS,
  ReconciliationSettingsSchema,
  RUN_STATES,
  TOKEN_KINDS,
} from "@usage-ingestion/reconciliation";
import type { JsonSchema } from "@valibot/to-json-schema";
import { ReconciliationRunSchema } from "../../routes/v1/reconciliation-runs.ts";
import {
  body,
  changeErrors,
  errors,
  ifMatchParameter,
  json,
  keyOrSession,
  type OpenApiPart,
  orgParameter,
  orNull,
  pathParameter,
  readErrors,
  ref,
  time,
} from "./operations.ts";

const usd = { type: "string", description: "USD, a nine-place decimal (signed for a difference)." } as const;
const counts = Object.fromEntries(TOKEN_KINDS.map((kind) => [kind, { type: "integer" }]));
const day = { type: "string", format: "date" } as const;
const vendorEnum: JsonSchema = { type: "string", enum: [...CONNECTION_VENDORS] };

/** One row as reconciliationRow (packages/reconciliation) stores and answers it. */
const row: JsonSchema = {
  type: "object",
  properties: {
    vendor: vendorEnum,
    day,
    model: { type: "string", description: "The model compared: lower case, without a snapshot's date." },
    our_models: { type: "array", items: { type: "string" }, description: "The names our records gave it." },
    vendor_models: { type: "array", items: { type: "string" }, description: "The names the vendor gave it." },
    split: orNull({
      type: "object",
      description:
        "When the connection maps the vendor's id that splits its reports (`project_id` for OpenAI, " +
        "`workspace_id` for Anthropic) to a declared dimension: the row is that id's, and `value` is both the " +
        "vendor's id and our records' value of the dimension (null: usage without one). Null: not split.",
      properties: {
        vendor_field: { type: "string" },
        dimension: { type: "string" },
        value: orNull({ type: "string" }),
      },
      required: ["vendor_field", "dimension", "value"],
    }),
    class: { type: "string", enum: [...CLASSES] },
    component: orNull({ type: "string", enum: [...PRICE_COMPONENTS] }),
    component_cost: orNull({
      type: "object",
      properties: { ours_usd: usd, vendor_usd: usd },
      required: ["ours_usd", "vendor_usd"],
      description: "For `price_mismatch`: the component at our rate and as the vendor billed it.",
    }),
    ours: {
      type: "object",
      properties: {
        ...counts,
        cost_usd: usd,
        transactions: { type: "integer" },
        unpriced_transactions: { type: "integer" },
      },
    },
    reported: {
      type: "object",
      description: "The vendor's own report; `cost_usd` null while its cost report has nothing for the day.",
      properties: {
        ...counts,
        cost_usd: orNull(usd),
        components: { type: "object", additionalProperties: usd },
      },
    },
    difference: { type: "object", description: "The vendor's less ours.", properties: { ...counts, cost_usd: usd } },
    run_id: { type: "string" },
    compared_at: time,
  },
  required: ["vendor", "day", "model", "split", "class", "ours", "reported", "difference"],
};

const answer: JsonSchema = {
  type: "object",
  properties: {
    from: day,
    to: day,
    provider: orNull(vendorEnum),
    model: orNull({ type: "string" }),
    classes: {
      type: "object",
      properties: Object.fromEntries(CLASSES.map((name) => [name, { type: "integer" }])),
      description: "Rows per class.",
    },
    rows: { type: "array", items: ref("ReconciliationRow"), description: "By day, vendor, model and split." },
  },
  required: ["from", "to", "provider", "model", "classes", "rows"],
};

const run: JsonSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    organization_id: { type: "string" },
    trigger: { type: "string", enum: ["requested", "daily"] },
    from: day,
    to: day,
    state: { type: "string", enum: [...RUN_STATES] },
    created_at: time,
    started_at: orNull(time),
    finished_at: orNull(time),
    error: orNull({ type: "string", description: "Why the run could not go on, beside each vendor's own error." }),
    vendors: {
      type: "array",
      items: {
        type: "object",
        properties: {
          vendor: vendorEnum,
          rows: { type: "integer" },
          classes: { type: "object", additionalProperties: { type: "integer" } },
          alerted: { type: "array", items: day, description: "Days alerted by `reconciliation.drift`." },
          error: orNull({ type: "string" }),
        },
      },
    },
  },
  required: ["id", "trigger", "from", "to", "state", "created_at", "vendors"],
};

const runs = "/v1/orgs/{org}/reconciliation/runs";
const settingsPath = "/v1/orgs/{org}/reconciliation/settings";

/** The settings as settingsView (packages/reconciliation) answers them, with their version. */
const settings: JsonSchema = {
  type: "object",
  properties: {
    tolerance_percent: { type: "number", description: "A row is `matched` within this share of the vendor's." },
    tolerance_usd: { ...usd, description: "...or, for the cost, within this amount (USD, nine places)." },
    drift_threshold_percent: { type: "number", description: "A day is alerted past this share of its total." },
    drift_threshold_usd: { ...usd, description: "...and past this amount (USD, nine places)." },
    updated_at: orNull({ ...time, description: "When last set; null: never, the defaults (1% and $0.01)." }),
    etag: { type: "string", description: "The settings' version, for `If-Match`; also the ETag header." },
  },
  required: [
    "tolerance_percent",
    "tolerance_usd",
    "drift_threshold_percent",
    "drift_threshold_usd",
    "updated_at",
    "etag",
  ],
};

/**
 * The stored comparisons' schemas, `/v1/orgs/{org}/reconciliation/runs` (routes/v1/reconciliation-runs.ts)
 * and `/v1/orgs/{org}/reconciliation/settings` (routes/v1/reconciliation-settings.ts).
 */
export const reconciliationPart: OpenApiPart = {
  schemas: {
    ReconciliationRow: row,
    Reconciliation: answer,
    ReconciliationRun: run,
    ReconciliationSettings: settings,
  },
  paths: {
    [settingsPath]: {
      get: {
        summary: "The organization's reconciliation tolerance and drift threshold (viewer).",
        security: keyOrSession.read,
        parameters: [orgParameter],
        responses: {
          "200": json(ref("ReconciliationSettings"), "The settings, the defaults until set."),
          ...readErrors,
        },
      },
      put: {
        summary: "Replaces the reconciliation tolerance and drift threshold (admin), honouring If-Match.",
        description:
          "Each field absent takes its default (1 percent, $0.01). Percents from 0 to 100 with at most four " +
          "decimal places; amounts from 0 to 1000000 with at most nine. Recorded in the audit log " +
          "(`reconciliation_settings.updated`); the next run compares and alerts with them.",
        security: keyOrSession.change,
        parameters: [orgParameter, ifMatchParameter],
        requestBody: body(ReconciliationSettingsSchema),
        responses: {
          "200": json(ref("ReconciliationSettings"), "The settings as stored."),
          ...changeErrors,
          ...errors.conflict,
        },
      },
    },
    [runs]: {
      post: {
        summary: "Reads the connected vendors' reports over whole UTC days and compares them with ours (admin).",
        description:
          "Queued: the worker's reconciliation job takes it up on its next tick. `GET .../runs/{id}` gives its state.",
        security: keyOrSession.change,
        parameters: [orgParameter],
        requestBody: body(ReconciliationRunSchema),
        responses: {
          "202": json({ type: "object", properties: { id: { type: "string" }, state: { type: "string" } } }, "Queued."),
          ...changeErrors,
          ...errors.conflict,
        },
      },
    },
    [`${runs}/{id}`]: {
      get: {
        summary: "A reconciliation run's state, and what each vendor gave once done (viewer).",
        security: keyOrSession.read,
        parameters: [orgParameter, pathParameter("id", "The run's id, as the POST answered it.")],
        responses: { "200": json(ref("ReconciliationRun"), "The run."), ...readErrors },
      },
    },
  },
};
