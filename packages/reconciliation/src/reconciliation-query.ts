import type { Parsed } from "@usage-ingestion/reports";
import { checkWithCode, type FieldError, oneOf, toFieldErrors } from "@usage-ingestion/shared";
import * as v from "valibot";
import type { RowQuery } from "./reconciliation-store.ts";
import { MAX_RUN_DAYS } from "./run-store.ts";
import { DAY_MS } from "./vendor-days.ts";
import { CONNECTION_VENDORS } from "./vendors.ts";

/** Days one `GET /usage/reconciliation` reads by default, ending with today. */
export const DEFAULT_READ_DAYS = 31;

const utcDay = v.pipe(
  v.string("must be a string"),
  checkWithCode<string>(
    "invalid_format",
    (text) => /^\d{4}-\d{2}-\d{2}$/.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text),
    "must be a UTC day YYYY-MM-DD",
  ),
);

/** The query parameters of `GET /usage/reconciliation`; the OpenAPI document is generated from them. */
export const RECONCILIATION_PARAMS = {
  from: v.pipe(utcDay, v.description(`First UTC day, included. Default: ${DEFAULT_READ_DAYS} days before \`to\`.`)),
  to: v.pipe(utcDay, v.description("UTC day after the last one (excluded). Default: tomorrow, so today is in.")),
  provider: v.pipe(oneOf(CONNECTION_VENDORS), v.description("Only this vendor.")),
  model: v.pipe(
    v.string("must be a string"),
    v.minLength(1, "must not be empty"),
    v.maxLength(256, "must be at most 256 characters"),
    v.description("Only this model: as we or the vendor name it, with or without the snapshot's date."),
  ),
};

/** The query read, or every field error (unknown parameters too) and one message naming them. */
export function parseReconciliationQuery(params: Record<string, unknown>, now: Date): Parsed<RowQuery> {
  const errors: FieldError[] = [];
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    const schema = Object.hasOwn(RECONCILIATION_PARAMS, name)
      ? RECONCILIATION_PARAMS[name as keyof typeof RECONCILIATION_PARAMS]
      : undefined;
    if (!schema)
      errors.push({ field: name, code: "invalid_value", message: `${name} is not a parameter of this route` });
    else if (typeof value !== "string") {
      errors.push({ field: name, code: "invalid_type", message: `${name} must be given once, as text` });
    } else {
      const result = v.safeParse(schema, value);
      if (result.success) values[name] = value;
      else errors.push(...toFieldErrors(result.issues, { root: name }));
    }
  }
  const tomorrow = Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS;
  const to = values.to ? new Date(`${values.to}T00:00:00Z`) : new Date(tomorrow);
  const from = values.from ? new Date(`${values.from}T00:00:00Z`) : new Date(to.getTime() - DEFAULT_READ_DAYS * DAY_MS);
  if (errors.length === 0) {
    if (to.getTime() <= from.getTime()) {
      errors.push({ field: "to", code: "invalid_value", message: "to must be a later day than from (to is excluded)" });
    } else if (to.getTime() - from.getTime() > MAX_RUN_DAYS * DAY_MS) {
      errors.push({ field: "to", code: "too_large", message: `to must be at most ${MAX_RUN_DAYS} days after from` });
    }
  }
  if (errors.length > 0) {
    return { ok: false, errors, message: errors.map((error) => `${error.field}: ${error.message}`).join("; ") };
  }
  return {
    ok: true,
    query: {
      from,
      to,
      ...(values.provider ? { vendor: values.provider as RowQuery["vendor"] } : {}),
      ...(values.model ? { model: values.model } : {}),
    },
  };
}
