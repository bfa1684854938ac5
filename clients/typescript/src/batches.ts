import type { TrackedTransaction } from "./types.ts";

/** A transaction waiting to be sent, with the size of its JSON. */
export interface Queued {
  transaction: TrackedTransaction;
  bytes: number;
}

const encoder = new TextEncoder();
/** `{"transactions":[` ... `]}` and the commas between entries. */
const ENVELOPE_BYTES = 20;

/** The UTF-8 size of a transaction's JSON; throws what JSON.stringify throws (BigInt, cycles). */
export const jsonBytes = (transaction: TrackedTransaction): number =>
  encoder.encode(JSON.stringify(transaction)).length;

/**
 * Splits queued transactions into requests the service accepts: at most `maxCount` each and at most
 * `maxBytes` of JSON. A transaction too large on its own goes alone; the service then says why.
 */
export function batchesOf(queued: Queued[], maxCount: number, maxBytes: number): TrackedTransaction[][] {
  const batches: TrackedTransaction[][] = [];
  let current: TrackedTransaction[] = [];
  let bytes = ENVELOPE_BYTES;
  for (const { transaction, bytes: size } of queued) {
    if (current.length > 0 && (current.length >= maxCount || bytes + size + 1 > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = ENVELOPE_BYTES;
    }
    current.push(transaction);
    bytes += size + 1;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
