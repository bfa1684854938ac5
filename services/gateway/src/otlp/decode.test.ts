import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import {
  decodeTraces,
  ExportTraceServiceRequest,
  formatOf,
  MAX_ATTRIBUTES_PER_SPAN,
  MAX_MESSAGE_DEPTH,
  MAX_MESSAGES_PER_REQUEST,
  MAX_SPANS_PER_REQUEST,
} from "./decode.ts";

const TRACE = "0af7651916cd43dd8448eb211c80319c";
const SPAN = "b7ad6b7169203331";

/** A request in OTLP/JSON's shape with these spans (ids as hex), and the same in the binary encoding. */
const request = (spans: Array<Record<string, unknown>>) => ({
  resourceSpans: [
    {
      resource: { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }] },
      scopeSpans: [{ spans: spans.map((span) => ({ traceId: TRACE, spanId: SPAN, name: "chat", ...span })) }],
    },
  ],
});
const binary = (json: ReturnType<typeof request>) => {
  const withBytes = JSON.parse(JSON.stringify(json), (key, value) =>
    key === "traceId" || key === "spanId" ? Buffer.from(value, "hex") : value,
  );
  return Buffer.from(ExportTraceServiceRequest.encode(ExportTraceServiceRequest.fromObject(withBytes)).finish());
};

/**
 * `spans` spans (default one) of `count` one-byte attributes each (a KeyValue and its AnyValue each),
 * written field by field: fast.
 */
function tinyAttributes(count: number, spans = 1): Buffer {
  const type = (name: string) => ExportTraceServiceRequest.root.lookupType(name);
  const keyValue = type("opentelemetry.proto.common.v1.KeyValue");
  const one = keyValue.encode(keyValue.fromObject({ key: "k", value: { intValue: 1 } })).finish();
  const repeated = (parent: protobuf.Type, field: string, items: Uint8Array, times = 1) => {
    const writer = protobuf.Writer.create();
    const id = parent.fields[field]?.id as number;
    for (let i = 0; i < times; i++) writer.uint32((id << 3) | 2).bytes(items);
    return writer.finish();
  };
  const span = repeated(type("opentelemetry.proto.trace.v1.Span"), "attributes", one, count);
  const scope = repeated(type("opentelemetry.proto.trace.v1.ScopeSpans"), "spans", span, spans);
  const resource = repeated(type("opentelemetry.proto.trace.v1.ResourceSpans"), "scopeSpans", scope);
  return Buffer.from(repeated(ExportTraceServiceRequest, "resourceSpans", resource));
}

const attributes = [
  { key: "gen_ai.usage.input_tokens", value: { intValue: "9007199254740991" } },
  { key: "gen_ai.request.model", value: { stringValue: "gpt-4o" } },
  { key: "sampled", value: { boolValue: true } },
  { key: "ratio", value: { doubleValue: 0.5 } },
  { key: "list", value: { arrayValue: { values: [{ stringValue: "a" }] } } },
];

describe("decodeTraces", () => {
  it("reads the binary encoding and OTLP/JSON alike: hex ids, scalar attributes, the resource's", () => {
    const json = request([{ attributes }]);
    for (const decoded of [
      decodeTraces(binary(json), "protobuf"),
      decodeTraces(Buffer.from(JSON.stringify(json)), "json"),
    ]) {
      expect(decoded.ok).toBe(true);
      if (!decoded.ok) continue;
      const [span] = decoded.spans;
      expect(span?.traceId).toBe(TRACE);
      expect(span?.spanId).toBe(SPAN);
      expect(Object.fromEntries(span?.attributes ?? [])).toEqual({
        "gen_ai.usage.input_tokens": 9007199254740991,
        "gen_ai.request.model": "gpt-4o",
        sampled: true,
        ratio: 0.5,
      });
      expect(span?.resource.get("service.name")).toBe("checkout");
    }
  });

  it("takes integers OTLP/JSON writes as numbers, and an empty binary request", () => {
    const json = request([{ attributes: [{ key: "n", value: { intValue: 12 } }] }]);
    const decoded = decodeTraces(Buffer.from(JSON.stringify(json)), "json");
    expect(decoded.ok && decoded.spans[0]?.attributes.get("n")).toBe(12);
    expect(decodeTraces(Buffer.alloc(0), "protobuf")).toEqual({ ok: true, spans: [], values: 0 });
  });

  it("refuses what does not decode, with the decoder's reason", () => {
    expect(decodeTraces(Buffer.from([0x0a, 0xff, 0xff]), "protobuf")).toMatchObject({ ok: false, status: 400 });
    expect(decodeTraces(Buffer.from("nope"), "json")).toMatchObject({ ok: false, status: 400 });
    expect(decodeTraces(Buffer.from("[]"), "json")).toMatchObject({ ok: false, status: 400 });
    expect(decodeTraces(Buffer.from('{"resourceSpans":5}'), "json")).toMatchObject({
      status: 400,
      message: expect.stringContaining("resourceSpans: array expected"),
    });
  });

  it("bounds spans, messages and nesting before they cost memory", () => {
    const many = request(Array.from({ length: MAX_SPANS_PER_REQUEST + 1 }, () => ({})));
    expect(decodeTraces(binary(many), "protobuf")).toMatchObject({ ok: false, status: 413 });

    // Within the attributes of a span, past the messages of a request: 1,250 spans of 100 attributes.
    expect(decodeTraces(tinyAttributes(100, 1_250), "protobuf")).toMatchObject({
      ok: false,
      status: 413,
      message: expect.stringContaining(`more than ${MAX_MESSAGES_PER_REQUEST} messages`),
    });

    let value: Record<string, unknown> = { stringValue: "deep" };
    for (let i = 0; i < MAX_MESSAGE_DEPTH; i++) value = { arrayValue: { values: [value] } };
    expect(decodeTraces(binary(request([{ attributes: [{ key: "deep", value }] }])), "protobuf")).toMatchObject({
      ok: false,
      status: 400,
      message: expect.stringContaining("deeper than"),
    });
  });

  it("refuses a span of more attributes than the SDKs' default limit, before decoding it", () => {
    const ceiling = `more than ${MAX_ATTRIBUTES_PER_SPAN} attributes`;
    expect(decodeTraces(tinyAttributes(MAX_ATTRIBUTES_PER_SPAN), "protobuf")).toMatchObject({ ok: true });
    expect(decodeTraces(tinyAttributes(MAX_ATTRIBUTES_PER_SPAN + 1), "protobuf")).toMatchObject({
      ok: false,
      status: 400,
      message: expect.stringContaining(ceiling),
    });
    const many = (count: number) => Array.from({ length: count }, (_, i) => ({ key: `a${i}`, value: { intValue: i } }));
    const json = (value: unknown) => Buffer.from(JSON.stringify(value));
    expect(decodeTraces(json(request([{ attributes: many(MAX_ATTRIBUTES_PER_SPAN) }])), "json")).toMatchObject({
      ok: true,
    });
    // The finding: one OTLP/JSON span of 100,000 attributes, about 4.5 MB, refused before the request is built.
    const heavy = json(request([{ attributes: many(100_000) }]));
    expect(decodeTraces(heavy, "json")).toMatchObject({
      ok: false,
      status: 400,
      message: expect.stringContaining(ceiling),
    });
    // Events, links, scopes and resources have the same ceiling.
    const event = { name: "e", attributes: many(MAX_ATTRIBUTES_PER_SPAN + 1) };
    expect(decodeTraces(json(request([{ events: [event] }])), "json")).toMatchObject({ ok: false, status: 400 });
    expect(
      decodeTraces(binary(request([{ links: [{ traceId: TRACE, spanId: SPAN, ...event }] }])), "protobuf"),
    ).toMatchObject({
      ok: false,
      status: 400,
    });
  });

  it("counts what it read, the request's charge beside its model calls", () => {
    const json = request([{ attributes }, { attributes }]);
    // OTLP/JSON: two spans and their 5 attributes each, and the resource's one.
    expect(decodeTraces(Buffer.from(JSON.stringify(json)), "json")).toMatchObject({ ok: true, values: 13 });
    // Binary: every message on the wire (spans, KeyValues, AnyValues and the lists inside them).
    const decoded = decodeTraces(binary(json), "protobuf");
    expect(decoded.ok && decoded.values).toBeGreaterThan(20);
  });

  it("knows the two content types, with parameters", () => {
    expect(formatOf("application/x-protobuf")).toBe("protobuf");
    expect(formatOf("Application/JSON; charset=utf-8")).toBe("json");
    expect(formatOf("text/plain")).toBeUndefined();
    expect(formatOf(undefined)).toBeUndefined();
  });
});
