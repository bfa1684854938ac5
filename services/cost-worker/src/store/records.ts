import { createHash } from "node:crypto";
import type { Firestore } from "@google-cloud/firestore";
import {
  type CostRecord,
  DOCUMENT_PATHS,
  type Quantities,
  type RejectedMessage,
  withTimeout,
} from "@usage-ingestion/shared";
import { isAlreadyExists } from "@usage-ingestion/shared/server";
import { type MergeWrite, recordRollupWrites } from "./rollup-writes.ts";

/** What became of a record: stored with this status, or already there from an earlier delivery. */
export type StoreOutcome = CostRecord["status"] | "redelivered";

export interface RecordToStore {
  record: CostRecord;
  /** The usage quantities the reports sum. */
  quantities: Quantities;
  /** Identifies "the same content" for a repeated `transaction_id`. */
  contentHash: string;
}

export interface RecordStore {
  /**
   * Stores the record once per message, with its roll-up increments, in one atomic commit. A record with a
   * `transaction_id` already billed in its organization is stored as `duplicate` or `conflict` instead.
   */
  store(toStore: RecordToStore): Promise<StoreOutcome>;
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

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
/** Two racing first deliveries of one id: the loser retries at once and finds the winner's claim. */
const CLAIM_ATTEMPTS = 3;

/**
 * Writes are bounded by `timeoutMs`. A write that lands after its time-out is harmless: the redelivery
 * finds the record and is acknowledged.
 */
export function firestoreRecordStore(db: Firestore, timeoutMs = 10_000): RecordStore {
  const bounded = <T>(promise: Promise<T>) =>
    withTimeout(promise, timeoutMs, () => new FirestoreTimeoutError(`Firestore took longer than ${timeoutMs} ms`));

  /** Without a transaction id: no read at all, one batch of the record and its increments. */
  async function storeByMessage({ record, quantities }: RecordToStore): Promise<StoreOutcome> {
    const batch = db.batch();
    batch.create(db.doc(DOCUMENT_PATHS.transaction(record.organization_id, record.message_id)), record);
    for (const write of recordRollupWrites(db, record, quantities)) batch.set(write.ref, write.data, { merge: true });
    try {
      await bounded(batch.commit());
      return record.status;
    } catch (error) {
      if (isAlreadyExists(error)) return "redelivered";
      throw error;
    }
  }

  /** With a transaction id: one extra read (the claim) and one extra write (claiming it), in one transaction. */
  async function storeByTransactionId(toStore: RecordToStore, transactionId: string): Promise<StoreOutcome> {
    const { record, quantities, contentHash } = toStore;
    const org = record.organization_id;
    const claimRef = db.doc(DOCUMENT_PATHS.transactionId(org, sha256(transactionId)));
    const recordRef = db.doc(DOCUMENT_PATHS.transaction(org, record.message_id));
    return db.runTransaction(async (tx) => {
      const claim = (await tx.get(claimRef)).data() as TransactionIdClaim | undefined;
      if (claim?.message_id === record.message_id) return "redelivered";
      let stored = record;
      if (claim) {
        stored = {
          ...record,
          status: claim.content_hash === contentHash ? "duplicate" : "conflict",
          duplicate_of: claim.message_id,
          unpriced_reason: null,
          cost_usd: null,
          cost_nanos: null,
          line_items: [],
        };
      } else {
        const newClaim: TransactionIdClaim = {
          transaction_id: transactionId,
          message_id: record.message_id,
          content_hash: contentHash,
          claimed_at: record.processed_at,
        };
        tx.create(claimRef, newClaim);
      }
      tx.create(recordRef, stored);
      const writes: MergeWrite[] = recordRollupWrites(db, stored, quantities);
      for (const write of writes) tx.set(write.ref, write.data, { merge: true });
      return stored.status;
    });
  }

  return {
    async store(toStore) {
      const transactionId = toStore.record.transaction_id;
      if (transactionId === null) return storeByMessage(toStore);
      for (let attempt = 1; ; attempt++) {
        try {
          return await bounded(storeByTransactionId(toStore, transactionId));
        } catch (error) {
          if (!isAlreadyExists(error)) throw error;
          // Either this message's record is there (a redelivery of a duplicate, or of itself racing), or
          // another message claimed the id first: then the next attempt reads that claim.
          const ref = db.doc(DOCUMENT_PATHS.transaction(toStore.record.organization_id, toStore.record.message_id));
          if ((await bounded(ref.get())).exists || attempt >= CLAIM_ATTEMPTS) return "redelivered";
        }
      }
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
