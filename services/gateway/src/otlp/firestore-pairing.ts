import { createHash } from "node:crypto";
import { type DocumentSnapshot, FieldValue, type Firestore, Timestamp } from "@google-cloud/firestore";
import { DOCUMENT_PATHS, withTimeout } from "@usage-ingestion/shared";
import {
  type CallDecision,
  type CallPairing,
  decideCalls,
  type PairingCall,
  type SpanSlot,
  slotKeys,
} from "./one-call-once.ts";

/** How long a slot stays readable: far past an exporter's batching and retries (`expire_at`: a TTL policy removes it). */
export const PAIRING_SLOT_TTL_MS = 60 * 60_000;
/** Calls decided in one batch: at most twice as many slots read and written. */
export const PAIRING_CALLS_PER_BATCH = 200;
/** Attempts at one batch: each lost only to another export of the same trace written in between. */
const ATTEMPTS = 5;
/** What another instance writing the same slots meanwhile makes a commit fail with: read again, decide again. */
const RACED = new Set([6 /* ALREADY_EXISTS */, 9 /* FAILED_PRECONDITION */, 10 /* ABORTED */]);

/** The slot as stored. */
interface StoredSlot {
  wrapped?: boolean;
  untaken_id?: string;
  decision?: { wrapper: boolean; transaction_id?: string };
}

export class PairingUnavailableError extends Error {}

export interface FirestorePairingOptions {
  timeoutMs: number;
  now?: () => number;
}

const fromStored = (stored: StoredSlot): SpanSlot => ({
  ...(stored.wrapped ? { wrapped: true } : {}),
  ...(typeof stored.untaken_id === "string" ? { untakenId: stored.untaken_id } : {}),
  ...(stored.decision
    ? {
        decision: stored.decision.wrapper
          ? { wrapper: true }
          : { wrapper: false, transactionId: String(stored.decision.transaction_id ?? "") },
      }
    : {}),
});

const toStored = (slot: SpanSlot): StoredSlot => ({
  ...(slot.wrapped ? { wrapped: true } : {}),
  ...(slot.untakenId !== undefined ? { untaken_id: slot.untakenId } : {}),
  ...(slot.decision
    ? {
        decision: slot.decision.wrapper
          ? { wrapper: true }
          : { wrapper: false, transaction_id: slot.decision.transactionId },
      }
    : {}),
});

/**
 * The pairing all gateway instances share. The slots of an export's calls and their parents are read,
 * the rule decided on them, and the slots it changed written in one batch that holds only if none was
 * written meanwhile (created where missing, updated at the time read otherwise): two exports of one
 * call's spans reaching two instances at once are decided one after the other, without locks. A store
 * that does not answer in `timeoutMs` fails the export (the exporter resends it): never a call billed twice.
 */
export function firestorePairing(db: Firestore, options: FirestorePairingOptions): CallPairing {
  const now = options.now ?? Date.now;
  const refOf = (organization: string, key: string) =>
    db.doc(DOCUMENT_PATHS.otlpSpanSlot(organization, createHash("sha256").update(key).digest("base64url")));

  const attempt = async (organization: string, calls: readonly PairingCall[]) => {
    const keys = slotKeys(calls);
    const snapshots = await db.getAll(...keys.map((key) => refOf(organization, key)));
    const read = new Map<string, DocumentSnapshot>();
    snapshots.forEach((snapshot, index) => {
      read.set(keys[index] as string, snapshot);
    });
    const slots = new Map<string, SpanSlot>();
    for (const [key, snapshot] of read) {
      if (snapshot.exists) slots.set(key, fromStored(snapshot.data() as StoredSlot));
    }
    const { decisions, changed } = decideCalls(slots, calls);
    if (changed.size === 0) return decisions;
    const expire_at = Timestamp.fromMillis(now() + PAIRING_SLOT_TTL_MS);
    const batch = db.batch();
    for (const key of changed) {
      const ref = refOf(organization, key);
      const stored = { ...toStored(slots.get(key) as SpanSlot), expire_at };
      const snapshot = read.get(key);
      // A whole slot replaces the one read, provided nobody wrote it since; a missing one is created.
      if (snapshot?.exists && snapshot.updateTime) {
        batch.update(ref, { untaken_id: FieldValue.delete(), ...stored }, { lastUpdateTime: snapshot.updateTime });
      } else batch.create(ref, stored);
    }
    await batch.commit();
    return decisions;
  };

  const decideBatch = async (organization: string, calls: readonly PairingCall[]) => {
    for (let tries = 1; ; tries++) {
      try {
        return await attempt(organization, calls);
      } catch (error) {
        if (!RACED.has((error as { code?: number }).code ?? -1) || tries >= ATTEMPTS) throw error;
      }
    }
  };

  return {
    async decide(organization, calls) {
      const decisions: CallDecision[] = [];
      for (let start = 0; start < calls.length; start += PAIRING_CALLS_PER_BATCH) {
        const chunk = calls.slice(start, start + PAIRING_CALLS_PER_BATCH);
        const decided = await withTimeout(
          decideBatch(organization, chunk),
          options.timeoutMs,
          () => new PairingUnavailableError(`the span store did not answer within ${options.timeoutMs} ms`),
        ).catch((error: unknown) => {
          if (error instanceof PairingUnavailableError) throw error;
          throw new PairingUnavailableError(`the span store failed: ${(error as Error).message}`);
        });
        decisions.push(...decided);
      }
      return decisions;
    },
  };
}
