import { validTransaction } from "../../test/setup/fixtures.ts";
import { validateTransaction } from "./validate-transaction.ts";

/** Field errors as [field, code] pairs, placed as in a single request (the whole value is `body`). */
export type Errors = Array<[field: string, code: string]>;

export function errorsOf(input: unknown): Errors {
  const result = validateTransaction(input, { root: "body" });
  return result.ok ? [] : result.errors.map((e) => [e.field, e.code]);
}

export const withUsage = (...usage: unknown[]) => validTransaction({ usage });
export const tokens = (metrics: Record<string, unknown>) => ({
  type: "tokens",
  metrics: { input_tokens: 10, output_tokens: 5, total_tokens: 15, ...metrics },
});
