import type { QueueMessage } from "@usage-ingestion/shared";

/**
 * The JSON text of queue messages, exactly as `JSON.stringify(message)` writes it, with the envelope a
 * request's messages share (version, organization, request id, receive time) written once per request
 * instead of once per message: only the index and the transaction differ from one message to the next.
 */
export function queueMessageJson(): (message: QueueMessage) => string {
  let last: QueueMessage | undefined;
  let head = "";
  let tail = "";
  return (message) => {
    if (
      last === undefined ||
      last.schema_version !== message.schema_version ||
      last.organization_id !== message.organization_id ||
      last.request_id !== message.request_id ||
      last.received_at !== message.received_at
    ) {
      last = message;
      // Keys in the order the message object holds them, as JSON.stringify would write them.
      head = `{"schema_version":${JSON.stringify(message.schema_version)},"organization_id":${JSON.stringify(message.organization_id)},"request_id":${JSON.stringify(message.request_id)},"transaction_index":`;
      tail = `,"received_at":${JSON.stringify(message.received_at)},"transaction":`;
    }
    return `${head}${JSON.stringify(message.transaction_index)}${tail}${JSON.stringify(message.transaction)}}`;
  };
}
