/**
 * The Pub/Sub `Publish` call's request and response in protobuf's wire format, for the one shape the
 * gateway's queue and the worker's records feed send (google/pubsub/v1/pubsub.proto):
 *
 *   PublishRequest  { string topic = 1; repeated PubsubMessage messages = 2; }
 *   PubsubMessage   { bytes data = 1; map<string, string> attributes = 2; }
 *   PublishResponse { repeated string message_ids = 1; }
 *
 * The generic path (proto-loader's `fromObject`, then `encode`, map entries one object each) cost more
 * CPU per transaction than all of the gateway's other work together; this writes every message straight
 * into one buffer. `publish-wire.test.ts` holds it to the generated types, both ways.
 */

export interface OutgoingMessage {
  /** The message's data: JSON text, written as UTF-8, or its bytes in pieces, written one after another. */
  data: string | readonly Uint8Array[];
  /** Messages of one request share one attributes object, and so its encoding. */
  attributes: Readonly<Record<string, string>>;
}

const LENGTH_DELIMITED = 2;
const tag = (field: number) => (field << 3) | LENGTH_DELIMITED;
const TOPIC = tag(1);
const MESSAGES = tag(2);
const DATA = tag(1);
const ATTRIBUTES = tag(2);
const MAP_KEY = tag(1);
const MAP_VALUE = tag(2);
const MESSAGE_IDS = tag(1);

const varintBytes = (value: number) =>
  value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;
/** A length-delimited field's size: its tag (one byte for every field here), the length, the payload. */
const fieldBytes = (payloadBytes: number) => 1 + varintBytes(payloadBytes) + payloadBytes;

function writeVarint(buffer: Buffer, offset: number, value: number): number {
  let rest = value;
  let at = offset;
  while (rest >= 0x80) {
    buffer[at++] = (rest & 0x7f) | 0x80;
    rest >>>= 7;
  }
  buffer[at++] = rest;
  return at;
}

/** The attributes map as it is written inside a message (field 2 entries), encoded once per object. */
function encodeAttributes(attributes: Readonly<Record<string, string>>): Buffer {
  // Measured first, then written straight into one buffer: no buffer per key and value.
  let size = 0;
  for (const key in attributes) {
    const entry =
      fieldBytes(Buffer.byteLength(key, "utf8")) + fieldBytes(Buffer.byteLength(attributes[key] as string, "utf8"));
    size += fieldBytes(entry);
  }
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const key in attributes) {
    const value = attributes[key] as string;
    const keyLength = Buffer.byteLength(key, "utf8");
    const valueLength = Buffer.byteLength(value, "utf8");
    out[at++] = ATTRIBUTES;
    at = writeVarint(out, at, fieldBytes(keyLength) + fieldBytes(valueLength));
    out[at++] = MAP_KEY;
    at = writeVarint(out, at, keyLength);
    at += out.write(key, at, "utf8");
    out[at++] = MAP_VALUE;
    at = writeVarint(out, at, valueLength);
    at += out.write(value, at, "utf8");
  }
  return out;
}

/** A message measured for its request: what the call limits count, and what encoding writes. */
export interface SizedMessage {
  /** The message's data; emptied by its owner once encoded, so that it does not outlive the encoding. */
  data: string | readonly Uint8Array[];
  dataBytes: number;
  /** The encoded attributes entries. */
  attributes: Buffer;
  /** The PubsubMessage's own size, without its field tag and length in the request. */
  bytes: number;
}

/** Measures messages; the attributes' encoding is kept while consecutive messages share one object. */
export class MessageSizer {
  private lastAttributes: Readonly<Record<string, string>> | undefined;
  private lastEncoded: Buffer = Buffer.alloc(0);

  size(message: OutgoingMessage): SizedMessage {
    if (message.attributes !== this.lastAttributes) {
      this.lastAttributes = message.attributes;
      this.lastEncoded = encodeAttributes(message.attributes);
    }
    const data = message.data;
    let dataBytes = 0;
    if (typeof data === "string") dataBytes = Buffer.byteLength(data, "utf8");
    else for (const piece of data) dataBytes += piece.length;
    const attributes = this.lastEncoded;
    return { data, dataBytes, attributes, bytes: fieldBytes(dataBytes) + attributes.length };
  }
}

/** The size a message adds to a request: its own bytes, its field tag and its length. */
export const requestShare = (message: SizedMessage) => fieldBytes(message.bytes);

/**
 * One PublishRequest holding every message, in order, after `reserved` bytes left for the caller (the
 * call's frame header), so that the request is written once, straight into the buffer that is sent.
 */
export function encodePublishRequest(topic: string, messages: readonly SizedMessage[], reserved = 0): Buffer {
  const topicBytes = Buffer.byteLength(topic, "utf8");
  let size = reserved + fieldBytes(topicBytes);
  for (const item of messages) size += fieldBytes(item.bytes);
  const out = Buffer.allocUnsafe(size);
  out[reserved] = TOPIC;
  let at = writeVarint(out, reserved + 1, topicBytes);
  at += out.write(topic, at, "utf8");
  for (const item of messages) {
    out[at++] = MESSAGES;
    at = writeVarint(out, at, item.bytes);
    out[at++] = DATA;
    at = writeVarint(out, at, item.dataBytes);
    if (typeof item.data === "string") {
      at += out.write(item.data, at, "utf8");
    } else {
      for (const piece of item.data) {
        out.set(piece, at);
        at += piece.length;
      }
    }
    at += item.attributes.copy(out, at);
  }
  if (at !== size) throw new Error(`PublishRequest encoded to ${at} bytes, ${size} expected`);
  return out;
}

function readVarint(buffer: Buffer, offset: number): [value: number, next: number] {
  let value = 0;
  let shift = 0;
  let at = offset;
  for (;;) {
    if (at >= buffer.length || shift > 28) throw new Error("PublishResponse: malformed varint");
    const byte = buffer[at++] as number;
    value |= (byte & 0x7f) << shift;
    if (byte < 0x80) return [value >>> 0, at];
    shift += 7;
  }
}

/** The ids of a PublishResponse, in the order of the request's messages; fields other than 1 are skipped. */
export function decodeMessageIds(buffer: Buffer): string[] {
  const ids: string[] = [];
  let at = 0;
  while (at < buffer.length) {
    const [key, afterKey] = readVarint(buffer, at);
    const wireType = key & 7;
    if (wireType === LENGTH_DELIMITED) {
      const [length, start] = readVarint(buffer, afterKey);
      const end = start + length;
      if (end > buffer.length) throw new Error("PublishResponse: field runs past the end");
      if (key === MESSAGE_IDS) ids.push(buffer.toString("utf8", start, end));
      at = end;
    } else if (wireType === 0) {
      at = readVarint(buffer, afterKey)[1];
    } else if (wireType === 1) {
      at = afterKey + 8;
    } else if (wireType === 5) {
      at = afterKey + 4;
    } else {
      throw new Error(`PublishResponse: unexpected wire type ${wireType}`);
    }
  }
  return ids;
}
