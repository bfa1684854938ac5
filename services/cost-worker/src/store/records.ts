import type { Firestore } from "@google-cloud/firestore";
import { type CostRecord, DOCUMENT_PATHS, type RejectedMessage, withTimeout } from "@usage-ingestion/shared";
import { isAlreadyExists } from "@usage-ingestion/shared/server";

export interface RecordStore {
  /** Creates the record unless one exists for this message: `false` means it was already there. */
  createOnce(organizationId: string, messageId: string, record: CostRecord): Promise<boolean>;
  /** Keeps a message that can never be priced, with its raw data and the reason; idempotent too. */
  reject(messageId: string, rejected: RejectedMessage): Promise<void>;
}

export class FirestoreTimeoutError extends Error {
  override name = "FirestoreTimeoutError";
}

/**
 * Writes are bounded by `timeoutMs`. A write that lands after its time-out is harmless: the redelivery
 * finds the record and is acknowledged.
 */
export function firestoreRecordStore(db: Firestore, timeoutMs = 10_000): RecordStore {
  const bounded = <T>(promise: Promise<T>) =>
    withTimeout(promise, timeoutMs, () => new FirestoreTimeoutError(`Firestore took longer than ${timeoutMs} ms`));
  const createOnce = async (path: string, data: object) => {
    try {
      await bounded(db.doc(path).create(data));
      return true;
    } catch (error) {
      if (isAlreadyExists(error)) return false;
      throw error;
    }
  };
  return {
    createOnce: (organizationId, messageId, record) =>
      createOnce(DOCUMENT_PATHS.transaction(organizationId, messageId), record),
    async reject(messageId, rejected) {
      await createOnce(DOCUMENT_PATHS.rejectedMessage(messageId), rejected);
    },
  };
}
