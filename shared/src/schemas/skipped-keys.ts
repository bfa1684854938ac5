import type { Transaction } from "./transaction.ts";

/**
 * The keys Valibot's `looseObject` leaves out of its output, as a guard against prototype pollution (and
 * `compileAccept` with it): in `context` and in a usage entry's `metrics`, where every other key a client
 * sends is kept, they are the client's data like any other.
 */
const SKIPPED_KEYS = ["__proto__", "prototype", "constructor"] as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** `from`'s own skipped keys, copied onto `to` as own data properties (never through `__proto__`'s setter). */
function copySkipped(from: unknown, to: unknown): void {
  if (!isObject(from) || !isObject(to)) return;
  for (const key of SKIPPED_KEYS) {
    if (!Object.hasOwn(from, key)) continue;
    Object.defineProperty(to, key, { value: from[key], enumerable: true, writable: true, configurable: true });
  }
}

/**
 * The validated `transaction` with the skipped keys of its `context` and of each usage entry's `metrics`
 * copied back from `input`, the value it was validated from; changed in place (validation builds those
 * objects afresh) and returned.
 */
export function withSkippedKeys(input: unknown, transaction: Transaction): Transaction {
  if (!isObject(input)) return transaction;
  copySkipped(input.context, transaction.context);
  const usage = input.usage;
  if (Array.isArray(usage)) {
    transaction.usage.forEach((entry, index) => {
      const given: unknown = usage[index];
      if (isObject(given)) copySkipped(given.metrics, entry.metrics);
    });
  }
  return transaction;
}
