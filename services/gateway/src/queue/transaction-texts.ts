import { isUtf8 } from "node:buffer";
import type { Transaction } from "@usage-ingestion/shared";
import { type JsonSpan, memberArrayElements, wholeSpan } from "./json-spans.ts";

/** Members (key and value pairs) of every object in a parsed JSON value, at every depth. */
function membersOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) count += membersOf(item);
    return count;
  }
  for (const key in value) count += 1 + membersOf((value as Record<string, unknown>)[key]);
  return count;
}

/**
 * Whether a transaction's text in the body is its validated form's JSON, so that the worker parses the
 * same transaction out of it as out of `JSON.stringify(transaction)`: Valibot dropped nothing (an
 * unknown field) and JSON.parse merged nothing (a repeated key), so every member of the text is one of
 * the validated transaction's; and every number reads back as JSON.stringify writes it. The schema adds
 * nothing an input lacks (no defaults, no transformations; `transaction-texts.test.ts` holds it to that),
 * so equal counts mean the same members.
 */
const isValidatedForm = (span: JsonSpan, transaction: Transaction) =>
  span.plainNumbers && span.members === membersOf(transaction);

/**
 * Each valid transaction's own JSON text in the request body, where it is the validated transaction's
 * JSON (see isValidatedForm), or undefined, when its message is serialised instead. Copying that text
 * costs a fraction of serialising the transaction again, which was the gateway's largest cost per
 * transaction in bulk after parsing. `body` is the text JSON.parse read; `request` says whether it was a
 * bulk and how many transactions it held.
 */
export function transactionTexts(
  body: Buffer,
  request: { bulk: boolean; transactions: number },
  valid: ReadonlyArray<{ index: number; transaction: Transaction }>,
): Array<Buffer | undefined> {
  // Bytes that are not UTF-8 were read as U+FFFD; the message holds what was read, so it is rewritten.
  if (!isUtf8(body)) return [];
  let spans: JsonSpan[] | undefined;
  try {
    spans = request.bulk ? memberArrayElements(body, "transactions") : [wholeSpan(body)];
  } catch {
    // The text parsed, so this cannot happen; if it does, every message is serialised as before.
    return [];
  }
  if (spans?.length !== request.transactions) return [];
  return valid.map(({ index, transaction }) => {
    const span = spans[index] as JsonSpan;
    return isValidatedForm(span, transaction) ? body.subarray(span.start, span.end) : undefined;
  });
}
