import * as v from "valibot";
import { acceptFirst, type Parsed } from "./accept-first.ts";
import { nonEmptyString } from "./field-rules.ts";
import { withSkippedKeys } from "./skipped-keys.ts";
import { QueuedTransactionSchema } from "./transaction.ts";

export const QUEUE_SCHEMA_VERSION = 1;

/**
 * One Pub/Sub message per accepted transaction. The gateway builds it, the worker parses it again.
 * Fields added later must be optional, with a comment saying why: during a rolling deploy, messages
 * written by the previous version are still in flight.
 */
export const QueueMessageSchema = v.object({
  schema_version: v.literal(QUEUE_SCHEMA_VERSION),
  organization_id: nonEmptyString,
  request_id: v.pipe(v.string(), v.uuid()),
  transaction_index: v.pipe(v.number(), v.integer(), v.minValue(0)),
  received_at: v.pipe(v.string(), v.isoTimestamp()),
  transaction: QueuedTransactionSchema,
});

const acceptQueueMessage = acceptFirst(QueueMessageSchema, { abortEarly: false });

/**
 * The worker's reading of a message: Valibot's answer, a valid message read by the compiled schema, with
 * the keys Valibot leaves out of `context` and `metrics` kept (`withSkippedKeys`), as the gateway kept them.
 */
export function parseQueueMessage(input: unknown): Parsed<QueueMessage> {
  const parsed = acceptQueueMessage(input);
  if (parsed.success) withSkippedKeys((input as { transaction?: unknown }).transaction, parsed.output.transaction);
  return parsed;
}

export type QueueMessageInput = v.InferInput<typeof QueueMessageSchema>;
export type QueueMessage = v.InferOutput<typeof QueueMessageSchema>;

/** Pub/Sub attributes, for filtering and routing without parsing the data. */
export interface QueueMessageAttributes {
  organization_id: string;
  schema_version: string;
  [key: string]: string;
}

export function queueMessageAttributes(message: QueueMessage): QueueMessageAttributes {
  return { organization_id: message.organization_id, schema_version: String(message.schema_version) };
}
