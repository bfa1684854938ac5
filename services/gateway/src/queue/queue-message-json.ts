import { MAX_TRANSACTIONS_PER_BULK, type QueueMessage } from "@usage-ingestion/shared";

/**
 * The envelope a request's messages share (version, organization, request id, receive time), written
 * once per request instead of once per message: only the index and the transaction differ from one
 * message to the next. Keys in the order the message object holds them, as JSON.stringify writes them.
 */
class EnvelopeText {
  private last: QueueMessage | undefined;
  /** Up to the index's value: `{"schema_version":…,"transaction_index":`. */
  private head = "";
  /** From the index to the transaction's value: `,"received_at":…,"transaction":`. */
  private tail = "";
  private headBytes: Buffer | undefined;
  private tailBytes: Buffer | undefined;

  of(message: QueueMessage): this {
    const last = this.last;
    if (
      last === undefined ||
      last.schema_version !== message.schema_version ||
      last.organization_id !== message.organization_id ||
      last.request_id !== message.request_id ||
      last.received_at !== message.received_at
    ) {
      this.last = message;
      this.head = `{"schema_version":${JSON.stringify(message.schema_version)},"organization_id":${JSON.stringify(message.organization_id)},"request_id":${JSON.stringify(message.request_id)},"transaction_index":`;
      this.tail = `,"received_at":${JSON.stringify(message.received_at)},"transaction":`;
      this.headBytes = undefined;
      this.tailBytes = undefined;
    }
    return this;
  }

  json(message: QueueMessage): string {
    return `${this.head}${JSON.stringify(message.transaction_index)}${this.tail}${JSON.stringify(message.transaction)}}`;
  }

  /**
   * The message's UTF-8 bytes in pieces, with the transaction's own JSON text given: the pieces other
   * than the transaction are the envelope's, shared by every message of the request.
   */
  pieces(message: QueueMessage, transaction: Uint8Array): Uint8Array[] {
    this.headBytes ??= Buffer.from(this.head, "utf8");
    this.tailBytes ??= Buffer.from(this.tail, "utf8");
    return [this.headBytes, indexText(message.transaction_index), this.tailBytes, transaction, CLOSE];
  }
}

const CLOSE = Buffer.from("}");
/** Indexes' text, made once each: a bulk holds at most MAX_TRANSACTIONS_PER_BULK. */
const INDEXES: Buffer[] = [];
function indexText(index: number): Buffer {
  if (index >= MAX_TRANSACTIONS_PER_BULK) return Buffer.from(JSON.stringify(index));
  let text = INDEXES[index];
  if (text === undefined) {
    text = Buffer.from(JSON.stringify(index));
    INDEXES[index] = text;
  }
  return text;
}

/**
 * Each message's data. Where `transactionTexts` holds a transaction's JSON text (taken from the request
 * body), the message is that text in the envelope, as UTF-8 bytes in pieces, nothing copied; the others
 * are exactly what `JSON.stringify(message)` writes.
 */
export function queueMessageData(
  messages: readonly QueueMessage[],
  transactionTexts: ReadonlyArray<Uint8Array | undefined> = [],
): Array<string | Uint8Array[]> {
  const envelope = new EnvelopeText();
  return messages.map((message, index) => {
    const text = transactionTexts[index];
    return text ? envelope.of(message).pieces(message, text) : envelope.of(message).json(message);
  });
}
