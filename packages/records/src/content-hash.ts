import type { Transaction } from "@usage-ingestion/shared";
import { sha256Hex } from "@usage-ingestion/shared/server";

/** JSON with object keys sorted, so that the same content always gives the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * What "the same content" means for a repeated `transaction_id`: the validated transaction, key order
 * ignored. A retry sends the same; anything else under the same id is a conflict.
 */
export const contentHash = (transaction: Transaction): string => sha256Hex(canonical(transaction));
