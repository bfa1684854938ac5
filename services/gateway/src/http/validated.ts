import { toFieldErrors, validationFailed } from "@usage-ingestion/shared";
import type { Response } from "express";
import * as v from "valibot";
import { send } from "./send.ts";

/**
 * `input` parsed by `schema`, or undefined once a 400 `validation_error` with every field error was sent.
 * `root` names the whole value in a detail (`body`, `query`).
 */
export function validated<TSchema extends v.GenericSchema>(
  res: Response,
  schema: TSchema,
  input: unknown,
  root = "body",
): v.InferOutput<TSchema> | undefined {
  const parsed = v.safeParse(schema, input, { abortPipeEarly: true });
  if (parsed.success) return parsed.output;
  send(res, validationFailed(toFieldErrors(parsed.issues, { root })));
  return undefined;
}
