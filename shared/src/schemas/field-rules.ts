import * as v from "valibot";
import { checkWithCode } from "../field-errors.ts";
import { MAX_IDENTIFIER_BYTES } from "../limits.ts";
import { hasControlOrBidi, isWellFormed } from "../unicode.ts";

/**
 * Building blocks shared by every schema. Messages are phrased to follow the field name
 * ("input_tokens must be an integer"); the field-error mapper adds the name.
 */

export const isJsonObject = (input: unknown): input is Record<string, unknown> =>
  typeof input === "object" && input !== null && !Array.isArray(input);

/** Valibot's object schemas accept arrays; a JSON object is required here, so arrays are a type error. */
export function jsonObject<TSchema extends v.GenericSchema<Record<string, unknown>>>(schema: TSchema) {
  return v.pipe(v.custom<Record<string, unknown>>(isJsonObject, "must be a JSON object"), schema);
}

export const anyJsonObject = v.custom<Record<string, unknown>>(isJsonObject, "must be a JSON object");

export const nonEmptyString = v.pipe(v.string("must be a string"), v.minLength(1, "must not be empty"));

/** Text that identifies a transaction must be valid Unicode: a lone surrogate is `invalid_format`. */
export const validUnicode = checkWithCode<string>(
  "invalid_format",
  isWellFormed,
  "must be valid Unicode text (it holds a lone surrogate)",
);

/**
 * An identifier holds no control or bidirectional formatting character (`invalid_format`). Added after
 * launch with the identifiers' bounds: the queue message's schema is built without it (see `transaction.ts`).
 */
export const plainText = checkWithCode<string>(
  "invalid_format",
  (text) => !hasControlOrBidi(text),
  "must not contain control characters or bidirectional formatting characters",
);

/** A non-empty identifier: provider, model, customer. */
export const identifier = v.pipe(nonEmptyString, validUnicode);

/**
 * An identifier's bound: a roll-up cell, a report group and a log line hold it whole, so it stays short.
 * Added after launch: the queue message's schema is built without it (see `transaction.ts`).
 */
export const identifierBytes = v.maxBytes(
  MAX_IDENTIFIER_BYTES,
  `must be at most ${MAX_IDENTIFIER_BYTES} bytes in UTF-8`,
);

export function integerAtLeast(min: number) {
  return v.pipe(
    v.number("must be an integer"),
    v.finite("must be a finite number"),
    v.integer("must be an integer"),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(Number.MAX_SAFE_INTEGER, `must be at most ${Number.MAX_SAFE_INTEGER}`),
  );
}

export function numberAtLeast(min: number) {
  return v.pipe(
    v.number("must be a number"),
    v.finite("must be a finite number"),
    v.minValue(min, `must be at least ${min}`),
  );
}

export function oneOf<const TOptions extends readonly string[]>(options: TOptions) {
  return v.picklist(options, `must be one of: ${options.join(", ")}`);
}
