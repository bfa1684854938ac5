import type { Firestore } from "@google-cloud/firestore";
import type { Quantities } from "@usage-ingestion/reports";
import { knownCells, type MergeWrite, recordRollupWrites } from "@usage-ingestion/reports";
import { type CostRecord, DOCUMENT_PATHS, type RejectedMessage, withTimeout } from "@usage-ingestion/shared";
import type { Commits, DocumentWrite } from "@usage-ingestion/shared/server";
import { isAlreadyExists, isNotFound, sha256Hex } from "@usage-ingestion/shared/server";

/** What became of a record: stored with this status, or already there from an earlier delivery. */
export type StoreOutcome = CostRecord["status"] | "redelivered";

/**
 * The outcome, and the record Firestore now holds for the message: the one just created, or, for a
 * redelivery, the one an earlier delivery stored (read back, re-pricing included); null only if it is gone.
 */
export interface StoreResult {
  outcome: StoreOutcome;
  stored: CostRecord | null;
}

export interface RecordToStore {
  record: CostRecord;
  /** The usage quantities the reports sum. */
  quantities: Quantities;
  /** Identifies "the same content" for a repeated `transaction_id`; asked only of a record that has one. */
  contentHash: () => string;
}

export interface RecordStore {
  /**
   * Stores the record once per message, with its roll-up increments, in one atomic commit. A record with a
   * `transaction_id` already billed in its organization is stored as `duplicate` or `conflict` instead.
   */
  store(toStore: RecordToStore): Promise<StoreResult>;
  /** Keeps a message that can never be priced, with its raw data and the reason; idempotent too. */
  reject(messageId: string, rejected: RejectedMessage): Promise<void>;
}

export class FirestoreTimeoutError extends Error {
  override name = "FirestoreTimeoutError";
}

/** Stored at `organizations/{org}/transaction_ids/{sha256(transaction_id)}`: who billed that id first. */
interface TransactionIdClaim {
  transaction_id: string;
  message_id: string;
  content_hash: string;
  claimed_at: string;
}

/**
 * Records and their roll-up increments are committed by `commits`; reads (a claimed transaction id) and
 * rejected messages go through the Firestore client `db`. Every call is bounded by `timeoutMs`. A write
 * that lands after its time-out is harmless: the redelivery finds the record and is acknowledged.
 * `storedAt` is the writer's clock a record's change is marked by (late or not, packages/reports/src/summaries.ts):
 * the real clock, unless a seeding of the past states when each record was stored.
 */
export function firestoreRecordStore(
  db: Firestore,
  commits: Commits,
  timeoutMs = 10_000,
  storedAt: (record: CostRecord) => Date = () => new Date(),
): RecordStore {
  const bounded = <T>(promise: Promise<T>) =>
    withTimeout(promise, timeoutMs, () => new FirestoreTimeoutError(`Firestore took longer than ${timeoutMs} ms`));

  const cells = knownCells();

  /**
   * Commits the documents to create (each must not exist yet) and the roll-up increments as one atomic
   * batch. A cell this process has committed to before gets only the counters that change, as increments
   * of a cell that must exist; any other is merged whole, key and all, which creates it when missing.
   */
  async function commitWrites(creates: Array<[string, object]>, merges: MergeWrite[]): Promise<void> {
    const writes: DocumentWrite[] = creates.map(([path, fields]) => ({ kind: "create", path, fields }));
    for (const { ref, key, counters, always } of merges) {
      if (always || !cells.has(ref.path))
        writes.push({ kind: "merge", path: ref.path, fields: key, increments: counters });
      else {
        const changed = counters.filter(([, amount]) => amount !== 0);
        if (changed.length > 0) writes.push({ kind: "increment", path: ref.path, increments: changed });
      }
    }
    await commits.commit(writes);
    for (const write of merges) if (!write.always) cells.add(write.ref.path);
  }

  /** One atomic batch; false when a document to create was there already (nothing was written). */
  async function commitOnce(creates: Array<[string, object]>, merges: MergeWrite[]): Promise<boolean> {
    try {
      await commitWrites(creates, merges).catch((error: unknown) => {
        if (!isNotFound(error)) throw error;
        // A cell was deleted since this process wrote to it: nothing was written; merge every cell whole.
        for (const write of merges) cells.forget(write.ref.path);
        return commitWrites(creates, merges);
      });
      return true;
    } catch (error) {
      if (isAlreadyExists(error)) return false;
      throw error;
    }
  }

  /** A redelivery: what an earlier delivery stored (one read, off the path of first deliveries). */
  async function redelivered(path: string): Promise<StoreResult> {
    const snap = await bounded(db.doc(path).get());
    return { outcome: "redelivered", stored: (snap.data() as CostRecord | undefined) ?? null };
  }

  return {
    /**
     * Without a transaction id: no read, one batch of the record and its increments. With one: the claim
     * on the id joins that batch (one extra write); only when the id is claimed already is the claim read
     * (one extra read) and the record stored as `duplicate` or `conflict` of the claimant.
     */
    async store({ record, quantities, contentHash: hashOfContent }) {
      const org = record.organization_id;
      const recordPath = DOCUMENT_PATHS.transaction(org, record.message_id);
      const transactionId = record.transaction_id;
      if (transactionId === null) {
        const created = await commitOnce(
          [[recordPath, record]],
          recordRollupWrites(db, record, quantities, storedAt(record)),
        );
        return created ? { outcome: record.status, stored: record } : redelivered(recordPath);
      }
      const claimPath = DOCUMENT_PATHS.transactionId(org, sha256Hex(transactionId));
      const contentHash = hashOfContent();
      const claim: TransactionIdClaim = {
        transaction_id: transactionId,
        message_id: record.message_id,
        content_hash: contentHash,
        claimed_at: record.processed_at,
      };
      const merges = recordRollupWrites(db, record, quantities, storedAt(record));
      if (
        await commitOnce(
          [
            [claimPath, claim],
            [recordPath, record],
          ],
          merges,
        )
      )
        return { outcome: record.status, stored: record };

      // Claimed already: by this message (a redelivery) or by another one (a repeat of the id).
      const claimant = (await bounded(db.doc(claimPath).get())).data() as TransactionIdClaim | undefined;
      if (!claimant || claimant.message_id === record.message_id) return redelivered(recordPath);
      const repeat: CostRecord = {
        ...record,
        status: claimant.content_hash === contentHash ? "duplicate" : "conflict",
        duplicate_of: claimant.message_id,
        unpriced_reason: null,
        cost_usd: null,
        cost_nanos: null,
        line_items: [],
      };
      const created = await commitOnce(
        [[recordPath, repeat]],
        recordRollupWrites(db, repeat, quantities, storedAt(repeat)),
      );
      return created ? { outcome: repeat.status, stored: repeat } : redelivered(recordPath);
    },
    async reject(messageId, rejected) {
      try {
        await bounded(db.doc(DOCUMENT_PATHS.rejectedMessage(messageId)).create(rejected));
      } catch (error) {
        if (!isAlreadyExists(error)) throw error;
      }
    },
  };
}
