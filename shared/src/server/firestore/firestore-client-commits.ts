import { FieldPath, FieldValue, type Firestore, type Transaction, type WriteBatch } from "@google-cloud/firestore";
import { withTimeout } from "../../timeout.ts";
import { GrpcCallError, GrpcStatus } from "../grpc/grpc-status.ts";
import type { DocumentWrite, Increment } from "./commit-wire.ts";
import { type Commits, mayRetry } from "./firestore-commits.ts";

/** `fields` with each increment set at its path as a FieldValue.increment, copying what it descends into. */
function withIncrements(fields: object, increments: readonly Increment[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...fields };
  for (const [path, amount] of increments) {
    let at = out;
    for (const segment of path.slice(0, -1)) {
      const next = at[segment];
      const copy: Record<string, unknown> =
        typeof next === "object" && next !== null && !Array.isArray(next) ? { ...next } : {};
      at[segment] = copy;
      at = copy;
    }
    at[path[path.length - 1] as string] = FieldValue.increment(amount);
  }
  return out;
}

/** The writes on a batch or a transaction, with the same preconditions our own Commit carries. */
function apply(db: Firestore, on: WriteBatch | Transaction, writes: readonly DocumentWrite[]): void {
  // A transaction's writes have a batch's signatures.
  const to = on as WriteBatch;
  for (const write of writes) {
    const ref = db.doc(write.path);
    if (write.kind === "create") {
      // Precondition: the document does not exist.
      to.create(ref, write.fields as Record<string, unknown>);
    } else if (write.kind === "merge") {
      // No precondition: every leaf of `fields` set, the counters incremented.
      to.set(ref, withIncrements(write.fields, write.increments), { merge: true });
    } else {
      // Precondition: the document exists (update's own).
      const [first, ...rest] = write.increments;
      if (first === undefined) continue;
      const more = rest.flatMap(([path, amount]) => [new FieldPath(...path), FieldValue.increment(amount)]);
      const update = to.update.bind(to) as (ref: unknown, field: FieldPath, value: unknown, ...more: unknown[]) => void;
      update(ref, new FieldPath(...first[0]), FieldValue.increment(first[1]), ...more);
    }
  }
}

/**
 * The same commits through @google-cloud/firestore (FIRESTORE_COMMIT_TRANSPORT=client), the fallback to
 * our own Commit call: the same writes, preconditions and time bound. A commit that carries a create
 * goes as a WriteBatch, which the client retries (ABORTED, RESOURCE_EXHAUSTED, UNAVAILABLE) as our own
 * retries it. One without a create must not be applied twice, and the client retries a plain commit:
 * it goes in a transaction begun by a read, tried once, whose commit cannot be applied twice.
 */
export function clientCommits(db: Firestore, timeoutMs: number): Commits {
  const bounded = (promise: Promise<unknown>) =>
    withTimeout(
      promise,
      timeoutMs,
      () => new GrpcCallError(GrpcStatus.DEADLINE_EXCEEDED, `Firestore took longer than ${timeoutMs} ms`),
    );
  return {
    async commit(writes) {
      if (writes.length === 0) return;
      if (mayRetry(writes)) {
        const batch = db.batch();
        apply(db, batch, writes);
        await bounded(batch.commit());
        return;
      }
      await bounded(
        db.runTransaction(
          async (transaction) => {
            await transaction.get(db.doc((writes[0] as DocumentWrite).path));
            apply(db, transaction, writes);
          },
          { maxAttempts: 1 },
        ),
      );
    },
    close: async () => undefined,
  };
}
