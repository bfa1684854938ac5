import type { TrackedTransaction } from "./types.ts";

const encoder = new TextEncoder();
/** `{"transactions":[` ... `]}` and the commas between entries. */
const ENVELOPE_BYTES = 20;

/**
 * Splits transactions into requests the service accepts: at most `maxCount` each and at most
 * `maxBytes` of JSON. A transaction too large on its own goes alone; the service then says why.
 */
export function batchesOf(transactions: TrackedTransaction[], maxCount: number, maxBytes: number) {
  const batches: TrackedTransaction[][] = [];
  let current: TrackedTransaction[] = [];
  let bytes = ENVELOPE_BYTES;
  for (const transaction of transactions) {
    const size = encoder.encode(JSON.stringify(transaction)).length + 1;
    if (current.length > 0 && (current.length >= maxCount || bytes + size > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = ENVELOPE_BYTES;
    }
    current.push(transaction);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
