import type { Firestore } from "@google-cloud/firestore";
import { type CostRecord, DOCUMENT_PATHS, type FieldError, isWellFormed, withTimeout } from "@usage-ingestion/shared";
import { type RecordDetail, recordDetail } from "./record-view.ts";

/** Longer than any message id Pub/Sub gives (decimal digits), far below Firestore's 1,500 bytes for an id. */
export const MAX_MESSAGE_ID_BYTES = 256;

export class RecordReadTimeout extends Error {
  override name = "RecordReadTimeout";
}

/**
 * What is wrong with a `message_id` from a path, or null when it may name a record. Only what could never be
 * one document's id is refused (a `/`, the ids `.` and `..`, Firestore's reserved `__name__` form, text that
 * is not Unicode, control characters): anything else is looked up, and answered 404 when absent.
 */
export function messageIdProblem(messageId: string): FieldError | null {
  const field = "message_id";
  if (messageId === "") return { field, code: "required", message: "message_id must not be empty" };
  if (Buffer.byteLength(messageId) > MAX_MESSAGE_ID_BYTES) {
    return { field, code: "too_large", message: `message_id must be at most ${MAX_MESSAGE_ID_BYTES} bytes` };
  }
  if (
    messageId.includes("/") ||
    messageId === "." ||
    messageId === ".." ||
    /^__.*__$/.test(messageId) ||
    !isWellFormed(messageId) ||
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
    /[\u0000-\u001f\u007f-\u009f]/.test(messageId)
  ) {
    return { field, code: "invalid_format", message: "message_id is not a message id" };
  }
  return null;
}

/**
 * One record of the organization, whole, or null when it has none by that id. The path is the
 * organization's own, so another organization's record is never read; the stored organization is checked
 * too, as a second lock on the same door.
 */
export async function readRecord(
  db: Firestore,
  organizationId: string,
  messageId: string,
  timeoutMs: number,
): Promise<RecordDetail | null> {
  const snap = await withTimeout(
    db.doc(DOCUMENT_PATHS.transaction(organizationId, messageId)).get(),
    timeoutMs,
    () => new RecordReadTimeout(`reading the record took longer than ${timeoutMs} ms`),
  );
  const record = snap.data() as CostRecord | undefined;
  if (!record || record.organization_id !== organizationId) return null;
  return recordDetail({ ...record, message_id: snap.id });
}
