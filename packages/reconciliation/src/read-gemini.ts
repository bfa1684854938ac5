import type { BigQueryOptions } from "@google-cloud/bigquery";
import * as v from "valibot";
import { geminiSku } from "./gemini-skus.ts";
import { usdDecimalToNanos } from "./vendor-amounts.ts";
import { checkDayRange, DAY_MS, type DayRange, wholeDayOf } from "./vendor-days.ts";
import { FigureSheet, type VendorFigure } from "./vendor-figures.ts";
import { VendorAnswerError, type VendorHttp } from "./vendor-http.ts";
import { VENDOR_RULES } from "./vendors.ts";

/*
 * Google bills the Gemini API and Vertex AI through Cloud Billing; its export to BigQuery (standard or
 * detailed usage cost, docs.cloud.google.com/billing/docs/how-to/export-data-bigquery-tables/standard-usage,
 * read 2026-11-29) has one row per SKU, hour and resource: `service.description`, `sku.description`,
 * `usage_start_time`, `cost` (FLOAT64, in `currency`), `credits` (repeated `{ name, amount }`, amounts
 * negative), `usage.amount` in `usage.unit`, `project.id` and `labels`. The connection's credential names the
 * table; the worker's own service account reads it (BigQuery Data Viewer on the dataset, Job User in its own
 * project). The query is read with the BigQuery client's jobs.query and jobs.getQueryResults (paged by
 * `pageToken`, polled while `jobComplete` is false), its 429 and `rateLimitExceeded` answers tried again by
 * the client.
 */

/** The billing services whose every SKU is Gemini's; Vertex AI's are only those whose SKU names Gemini. */
export const GEMINI_SERVICES = ["Gemini API", "Generative Language API"];

const TABLE = VENDOR_RULES.gemini.form;

/** Per UTC day and SKU: the usage in its unit, and the cost with its credits, exactly (NUMERIC, 9 places). */
export const geminiQuery = (table: string): string => `
SELECT
  FORMAT_TIMESTAMP('%F', usage_start_time, 'UTC') AS day,
  service.description AS service,
  sku.description AS sku,
  IFNULL(usage.unit, '') AS unit,
  currency,
  CAST(CAST(ROUND(SUM(IFNULL(usage.amount, 0))) AS INT64) AS STRING) AS usage_amount,
  CAST(SUM(CAST(cost AS NUMERIC))
    + SUM(IFNULL((SELECT SUM(CAST(credit.amount AS NUMERIC)) FROM UNNEST(credits) AS credit), 0)) AS STRING) AS cost
FROM \`${table}\`
WHERE usage_start_time >= @from AND usage_start_time < @to
  AND (service.description IN UNNEST(@services)
    OR (service.description = 'Vertex AI' AND LOWER(sku.description) LIKE '%gemini%'))
GROUP BY day, service, sku, unit, currency
ORDER BY day, service, sku, unit, currency`;

const Row = v.object({
  day: v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/)),
  service: v.pipe(v.string(), v.maxLength(200)),
  sku: v.pipe(v.string(), v.maxLength(500)),
  unit: v.pipe(v.string(), v.maxLength(100)),
  currency: v.pipe(v.string(), v.maxLength(8)),
  usage_amount: v.pipe(v.string(), v.regex(/^-?\d{1,18}$/)),
  cost: v.pipe(v.string(), v.maxLength(40)),
});
type Row = v.InferOutput<typeof Row>;

/** The units the export counts tokens in; a SKU in another unit gives its cost and no count. */
const TOKEN_UNITS = new Set(["count", "token", "tokens"]);

/** The row a SKU naming no model is compared as: the SKU, by its service and description. */
export const unmappedSku = (row: { service: string; sku: string }): string => `${row.service}: ${row.sku}`;

export interface GeminiReader {
  /** RECONCILE_BIGQUERY_ENDPOINT: BigQuery's own API (`https://bigquery.googleapis.com`) unless a test stands in. */
  endpoint?: string;
  /** The project the query job runs in: the worker's own (GOOGLE_CLOUD_PROJECT); absent, the credentials'. */
  jobProject?: string;
  /** Bounds: each request's time, tries after a 429, the longest wait, pages. */
  http: VendorHttp;
  now: Date;
  /** The client's credentials; absent, the worker's own (Application Default Credentials). */
  auth?: Pick<BigQueryOptions, "authClient">;
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const reason = (error as { errors?: Array<{ reason?: unknown }> }).errors?.[0]?.reason;
  if (code === 401 || code === 403) {
    return reason === "rateLimitExceeded"
      ? "rate limited"
      : `BigQuery refused the worker's access to the billing export (${code})`;
  }
  if (code === 404) return "the billing export table was not found";
  if (code === 429) return "rate limited";
  if (typeof code === "number")
    return `BigQuery answered ${code}${typeof reason === "string" ? ` (${reason.slice(0, 40)})` : ""}`;
  return "BigQuery could not be reached or did not answer in time";
}

/** The export's rows of the range's whole days, one figure per day and model (or unmapped SKU). */
export async function readGemini(reader: GeminiReader, table: string, range: DayRange): Promise<VendorFigure[]> {
  checkDayRange(range);
  // The table cannot be a query parameter: it is checked against its form again before it is quoted.
  if (!TABLE.test(table)) throw new VendorAnswerError("gemini: the connection does not name a BigQuery table");
  const { settings } = reader.http;
  // Loaded when a run reads Google's export: the package's other users (the gateway) never load it.
  const { BigQuery } = await import("@google-cloud/bigquery");
  const client = new BigQuery({
    ...(reader.jobProject ? { projectId: reader.jobProject } : {}),
    ...(reader.endpoint ? { apiEndpoint: reader.endpoint } : {}),
    ...reader.auth,
    retryOptions: {
      maxRetries: settings.maxRetries,
      maxRetryDelay: settings.maxWaitMs / 1000,
      totalTimeout: (settings.timeoutMs * (settings.maxRetries + 1)) / 1000,
    },
    timeout: settings.timeoutMs,
  } as BigQueryOptions);
  const rows: Row[] = [];
  const take = (page: unknown[]) => {
    for (const row of page) {
      const parsed = v.safeParse(Row, row);
      if (!parsed.success) throw new VendorAnswerError("gemini billing export: a row is not the documented shape");
      rows.push(parsed.output);
    }
  };
  try {
    let [page, next] = (await client.query(
      {
        query: geminiQuery(table),
        params: {
          from: BigQuery.timestamp(range.from),
          to: BigQuery.timestamp(range.to),
          services: GEMINI_SERVICES,
        },
        maxResults: 1000,
      },
      { autoPaginate: false },
    )) as unknown as [unknown[], Record<string, unknown> | null];
    take(page);
    for (let pages = 1; next; pages++) {
      if (pages >= settings.maxPages) {
        throw new VendorAnswerError(`gemini billing export: more than ${settings.maxPages} pages`);
      }
      const job = next.job as { getQueryResults(options: unknown): Promise<unknown> };
      [page, next] = (await job.getQueryResults({ ...next, autoPaginate: false })) as [
        unknown[],
        Record<string, unknown> | null,
      ];
      take(page);
    }
  } catch (error) {
    if (error instanceof VendorAnswerError) throw error;
    // Neither the client's message nor its request is repeated: only what the answer was.
    throw new VendorAnswerError(`gemini billing export: ${describe(error)}`);
  }
  const sheet = new FigureSheet();
  for (const row of rows) {
    const start = Date.parse(`${row.day}T00:00:00Z`);
    const day = wholeDayOf(start, start + DAY_MS, reader.now);
    if (!day) continue;
    if (row.currency.toUpperCase() !== "USD") {
      throw new VendorAnswerError(`gemini billing export: an amount in ${row.currency.slice(0, 8)}, not USD`);
    }
    const nanos = usdDecimalToNanos(row.cost);
    const sku = geminiSku(row.sku);
    if (!sku) {
      sheet.addCost(day, unmappedSku(row), nanos);
      continue;
    }
    if (TOKEN_UNITS.has(row.unit.toLowerCase())) {
      const count = Number(row.usage_amount);
      // Gemini's own convention, which clients send: the prompt's count includes its cached tokens.
      sheet.addTokens(
        day,
        sku.model,
        sku.kind === "cached_tokens" ? { cached_tokens: count, input_tokens: count } : { [sku.kind]: count },
      );
    }
    sheet.addCost(day, sku.model, nanos, sku.component);
  }
  return sheet.figures();
}
