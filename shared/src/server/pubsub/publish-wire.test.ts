import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeMessageIds, encodePublishRequest, MessageSizer, type OutgoingMessage } from "./publish-wire.ts";

/** The generated protobuf types the Pub/Sub client itself encodes with: the reference for ours. */
const { google } = createRequire(import.meta.url)("@google-cloud/pubsub/build/protos/protos.js") as {
  google: {
    pubsub: {
      v1: {
        PublishRequest: {
          decode(bytes: Uint8Array): { topic: string; messages: Array<{ data: Uint8Array; attributes: object }> };
        };
        PublishResponse: {
          encode(value: { messageIds: string[] }): { finish(): Uint8Array };
          fromObject(value: object): object;
        };
      };
    };
  };
};
const { PublishRequest, PublishResponse } = google.pubsub.v1;

const encode = (topic: string, messages: OutgoingMessage[]) => {
  const sizer = new MessageSizer();
  return encodePublishRequest(
    topic,
    messages.map((message) => sizer.size(message)),
  );
};

const decoded = (bytes: Buffer) => {
  const request = PublishRequest.decode(bytes);
  return {
    topic: request.topic,
    messages: request.messages.map((m) => ({
      data: Buffer.from(m.data).toString("utf8"),
      attributes: { ...m.attributes },
    })),
  };
};

describe("the Publish call on the wire", () => {
  it("encodes a request the generated PublishRequest reads back exactly", () => {
    const shared = { organization_id: "org-1", schema_version: "1", traceparent: "00-abc-def-01" };
    const messages: OutgoingMessage[] = [
      { data: '{"n":1}', attributes: shared },
      { data: JSON.stringify({ text: "café ☕ 𝄞 \u0000" }), attributes: shared },
      // Lengths on each side of a varint's byte boundaries.
      ...[127, 128, 16_383, 16_384, 2_097_151, 2_097_152].map((length) => ({
        data: "x".repeat(length),
        attributes: { organization_id: "y".repeat(length % 300) },
      })),
      { data: "", attributes: {} },
      // Keys and values whose UTF-8 is longer than their JavaScript length.
      { data: "{}", attributes: { "clé_☕": "café ☕ 𝄞", organization_id: "é".repeat(70) } },
    ];
    expect(decoded(encode("projects/p/topics/t", messages))).toEqual({ topic: "projects/p/topics/t", messages });
  });

  it("writes a message given in pieces as their bytes one after another", () => {
    const attributes = { organization_id: "org-1" };
    const pieces = ['{"text":"', "café ☕ 𝄞", '"}'].map((piece) => Buffer.from(piece, "utf8"));
    const messages: OutgoingMessage[] = [
      { data: pieces, attributes },
      { data: "plain", attributes },
      { data: [], attributes },
    ];
    expect(decoded(encode("t", messages)).messages.map((message) => message.data)).toEqual([
      '{"text":"café ☕ 𝄞"}',
      "plain",
      "",
    ]);
  });

  it("reads back any messages and attributes, lengths past one varint byte included", () => {
    const text = fc.string({ unit: "grapheme", maxLength: 300 });
    fc.assert(
      fc.property(
        text,
        fc.array(fc.record({ data: text, attributes: fc.dictionary(text, text, { maxKeys: 4 }) }), { maxLength: 20 }),
        (topic, messages) => {
          expect(decoded(encode(topic, messages))).toEqual({ topic, messages });
        },
      ),
      { seed: 16, numRuns: 200 },
    );
  });

  it("writes the request after the bytes the caller reserves, and leaves those to the caller", () => {
    const sizer = new MessageSizer();
    const messages = [{ data: '{"n":1}', attributes: { organization_id: "org-1" } }];
    const plain = encodePublishRequest(
      "projects/p/topics/t",
      messages.map((m) => sizer.size(m)),
    );
    const framed = encodePublishRequest(
      "projects/p/topics/t",
      messages.map((m) => sizer.size(m)),
      5,
    );
    expect(framed.length).toBe(plain.length + 5);
    expect(framed.subarray(5)).toEqual(plain);
  });

  it("decodes the ids of a PublishResponse in order", () => {
    const messageIds = ["1", "22", "333", "9".repeat(200)];
    const bytes = Buffer.from(PublishResponse.encode({ messageIds }).finish());
    expect(decodeMessageIds(bytes)).toEqual(messageIds);
    expect(decodeMessageIds(Buffer.alloc(0))).toEqual([]);
  });

  it("refuses a response cut short instead of reading past it", () => {
    const bytes = Buffer.from(PublishResponse.encode({ messageIds: ["123456"] }).finish());
    expect(() => decodeMessageIds(bytes.subarray(0, bytes.length - 2))).toThrow(/past the end/);
  });
});
