import { MAX_NESTING_DEPTH, tooDeepPath } from "@usage-ingestion/shared";
import protobuf from "protobufjs";
import descriptor from "./proto/descriptor.json" with { type: "json" };

/** The two encodings OTLP/HTTP defines, by the request's Content-Type. */
export type OtlpFormat = "protobuf" | "json";

/** An attribute's value as the mapping reads it; arrays, maps and bytes are kept out (nothing maps them). */
export type AttributeValue = string | number | boolean;

/** One span of a request, with what the mapping needs: its ids, its attributes, its resource's attributes. */
export interface DecodedSpan {
  /** Lowercase hex, as OTLP/JSON writes it. */
  traceId: string;
  spanId: string;
  /** Empty for a trace's root span. */
  parentSpanId: string;
  name: string;
  attributes: ReadonlyMap<string, AttributeValue>;
  resource: ReadonlyMap<string, AttributeValue>;
  /** The instrumentation scope that emitted the span (its library's name and version, either may be ""). */
  scope: InstrumentationScope;
}

export interface InstrumentationScope {
  name: string;
  version: string;
}

/** Spans in one request, model calls or not; a collector's batch is 8192 at most by default. */
export const MAX_SPANS_PER_REQUEST = 10_000;
/**
 * Messages (spans, attributes, values, events...) in one binary request, counted before decoding: what a
 * request may cost in memory, whatever its size. 5 MiB of one-byte attributes would otherwise decode into
 * some 650,000 of them (about 140 MB and 1.7 s of CPU); 250,000 bound that near 50 MB. A batch of 512
 * spans (the SDK exporters' default) with 100 attributes each holds about 100,000.
 */
export const MAX_MESSAGES_PER_REQUEST = 250_000;
/** How deep messages may nest (array and map values nest); the decoder recurses once per level. */
export const MAX_MESSAGE_DEPTH = 32;
/**
 * Attributes of one span, resource, scope, event or link: the OpenTelemetry SDKs' default limit
 * (OTEL_ATTRIBUTE_COUNT_LIMIT, 128), which an exporter does not pass unless told to. Checked while the
 * wire is walked (binary) or before the request is built from OTLP/JSON: a span of 100,000 attributes
 * never reaches the decoder or the mapping.
 */
export const MAX_ATTRIBUTES_PER_SPAN = 128;

type Refused = { ok: false; status: 400 | 413; message: string };
/** `values`: the messages (binary) or spans and attributes (OTLP/JSON) read, what the request is charged. */
export type Decoded = { ok: true; spans: DecodedSpan[]; values: number } | Refused;
const refused = (status: Refused["status"], message: string): Refused => ({ ok: false, status, message });
const isRefused = (value: unknown): value is Refused =>
  typeof value === "object" && value !== null && (value as Refused).ok === false;

const root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace).resolveAll();
export const ExportTraceServiceRequest = root.lookupType(
  "opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest",
);
export const ExportTraceServiceResponse = root.lookupType(
  "opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse",
);
export const RpcStatus = root.lookupType("google.rpc.Status");

/** `application/x-protobuf` or `application/json` (any parameters), else undefined. */
export function formatOf(contentType: string | undefined): OtlpFormat | undefined {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  if (type === "application/x-protobuf") return "protobuf";
  if (type === "application/json") return "json";
  return undefined;
}

/**
 * An ExportTraceServiceRequest, binary or OTLP/JSON, decoded with the OTLP definitions into its spans.
 * What cannot be decoded is a 400 with the decoder's reason; more than MAX_SPANS_PER_REQUEST spans a 413.
 */
export function decodeTraces(body: Buffer, format: OtlpFormat): Decoded {
  let read: Refused | { request: unknown; values: number };
  try {
    read = format === "protobuf" ? decodeBinary(body) : parseJson(body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return refused(400, `The body is not an OTLP ExportTraceServiceRequest: ${reason}`);
  }
  if (isRefused(read)) return read;
  const flat = flatten(read.request as Json);
  return flat.ok ? { ...flat, values: read.values } : flat;
}

/**
 * The decoded message is read as it is, not copied into plain objects (half the memory): it has OTLP/JSON's
 * field names, with ids as bytes and 64-bit integers as Long. Set fields are its own properties.
 */
function decodeBinary(body: Buffer): Refused | { request: unknown; values: number } {
  const counted = countMessages(body);
  if (isRefused(counted)) return counted;
  return { request: ExportTraceServiceRequest.decode(body), values: counted };
}

const attributesFieldOf = new Map<protobuf.Type, number>();
/** The field number of a type's `attributes` (KeyValue list), or 0 when it has none. */
function attributesField(type: protobuf.Type): number {
  let id = attributesFieldOf.get(type);
  if (id === undefined) {
    const field = type.fields.attributes;
    id = field?.repeated && field.resolvedType instanceof protobuf.Type ? field.id : 0;
    attributesFieldOf.set(type, id);
  }
  return id;
}

const tooManyAttributes = () =>
  refused(
    400,
    `A span, resource, scope, event or link holds more than ${MAX_ATTRIBUTES_PER_SPAN} attributes (the OpenTelemetry SDKs' default limit); keep within it.`,
  );

const messageFieldsOf = new Map<protobuf.Type, Array<protobuf.Type | undefined>>();
/** A type's fields that hold messages, by field number (worked out once per type). */
function messageFields(type: protobuf.Type): Array<protobuf.Type | undefined> {
  let fields = messageFieldsOf.get(type);
  if (!fields) {
    fields = [];
    for (const field of type.fieldsArray) {
      if (field.resolvedType instanceof protobuf.Type) fields[field.id] = field.resolvedType;
    }
    messageFieldsOf.set(type, fields);
  }
  return fields;
}

/**
 * Walks the request's wire format with the OTLP definitions, counting messages without building them;
 * a reason when there are more than MAX_MESSAGES_PER_REQUEST or they nest deeper than MAX_MESSAGE_DEPTH.
 * Malformed input is left for the decoder to describe.
 */
function countMessages(body: Buffer): Refused | number {
  const reader = protobuf.Reader.create(body);
  let left = MAX_MESSAGES_PER_REQUEST;
  const walk = (type: protobuf.Type, end: number, depth: number): Refused | undefined => {
    if (depth > MAX_MESSAGE_DEPTH)
      return refused(400, `The request nests messages deeper than ${MAX_MESSAGE_DEPTH} levels.`);
    const attributes = attributesField(type);
    let attributesLeft = MAX_ATTRIBUTES_PER_SPAN;
    while (reader.pos < end) {
      const tag = reader.uint32();
      const nested = (tag & 7) === 2 ? messageFields(type)[tag >>> 3] : undefined;
      if (!nested) {
        reader.skipType(tag & 7);
        continue;
      }
      if (attributes !== 0 && tag >>> 3 === attributes && --attributesLeft < 0) return tooManyAttributes();
      const length = reader.uint32();
      const stop = reader.pos + length;
      if (stop > end) return undefined;
      if (--left < 0) {
        return refused(
          413,
          `The request holds more than ${MAX_MESSAGES_PER_REQUEST} messages (spans, attributes, values); export smaller batches.`,
        );
      }
      const problem = walk(nested, stop, depth + 1);
      if (problem) return problem;
      reader.pos = stop;
    }
    return undefined;
  };
  try {
    return walk(ExportTraceServiceRequest, body.length, 0) ?? MAX_MESSAGES_PER_REQUEST - left;
  } catch {
    // Malformed: the decoder describes it.
    return MAX_MESSAGES_PER_REQUEST - left;
  }
}

/**
 * OTLP/JSON: JSON, no deeper than any body we take, and of the request's types (checked by building the
 * message from it, which throws on a wrong type). Its own value is kept: ids are hex there, not base64.
 */
function parseJson(body: Buffer): Refused | { request: unknown; values: number } {
  const value: unknown = JSON.parse(body.toString("utf8"));
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return refused(400, "The body must be a JSON object (an ExportTraceServiceRequest).");
  }
  // First, by the lengths of lists alone: attributes per owner, and in all; then nesting, which walks
  // every value; then the request is built from it (the expensive step).
  const values = jsonValues(value as Json);
  if (isRefused(values)) return values;
  const deep = tooDeepPath(value, MAX_NESTING_DEPTH);
  if (deep) return refused(400, `The body nests deeper than ${MAX_NESTING_DEPTH} levels at ${deep.join(".")}.`);
  ExportTraceServiceRequest.fromObject(value as Json);
  return { request: value, values };
}

/** The length of an owner's `attributes` list; -1 past MAX_ATTRIBUTES_PER_SPAN. */
function attributeCount(owner: unknown): number {
  const list = (owner as Json | null | undefined)?.attributes;
  if (!Array.isArray(list)) return 0;
  return list.length > MAX_ATTRIBUTES_PER_SPAN ? -1 : list.length;
}

/**
 * Spans and attributes of an OTLP/JSON request, counted by the lengths of their lists (no attribute is
 * read): refused past MAX_ATTRIBUTES_PER_SPAN on any owner, or MAX_MESSAGES_PER_REQUEST in all.
 */
function jsonValues(request: Json): Refused | number {
  let values = 0;
  /** Counts an owner and its attributes; false past the ceiling. */
  const owned = (owner: unknown, itself: number): boolean => {
    const count = attributeCount(owner);
    values += itself + count;
    return count >= 0;
  };
  for (const resourceSpans of list(request.resourceSpans)) {
    if (!owned(resourceSpans?.resource, 0)) return tooManyAttributes();
    for (const scopeSpans of list(resourceSpans?.scopeSpans)) {
      if (!owned(scopeSpans?.scope, 0)) return tooManyAttributes();
      for (const span of list(scopeSpans?.spans)) {
        if (!owned(span, 1)) return tooManyAttributes();
        for (const owner of list(span?.events)) if (!owned(owner, 1)) return tooManyAttributes();
        for (const owner of list(span?.links)) if (!owned(owner, 1)) return tooManyAttributes();
      }
    }
    if (values > MAX_MESSAGES_PER_REQUEST) {
      return refused(
        413,
        `The request holds more than ${MAX_MESSAGES_PER_REQUEST} spans and attributes; export smaller batches.`,
      );
    }
  }
  return values;
}

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

function flatten(request: Json): { ok: true; spans: DecodedSpan[] } | Refused {
  const spans: DecodedSpan[] = [];
  for (const resourceSpans of list(request.resourceSpans)) {
    const resource = attributeMap((resourceSpans.resource as Json | undefined)?.attributes);
    for (const scopeSpans of list(resourceSpans.scopeSpans)) {
      const scope = scopeOf(scopeSpans.scope);
      for (const span of list(scopeSpans.spans)) {
        if (spans.length === MAX_SPANS_PER_REQUEST) {
          return refused(413, `The request holds more than ${MAX_SPANS_PER_REQUEST} spans; export smaller batches.`);
        }
        spans.push({
          traceId: hex(span.traceId),
          spanId: hex(span.spanId),
          parentSpanId: hex(span.parentSpanId),
          name: typeof span.name === "string" ? span.name : "",
          attributes: attributeMap(span.attributes),
          resource,
          scope,
        });
      }
    }
  }
  return { ok: true, spans };
}

/** InstrumentationScope's name and version, "" when unset. */
function scopeOf(scope: unknown): InstrumentationScope {
  const { name, version } = (scope ?? {}) as Json;
  return { name: typeof name === "string" ? name : "", version: typeof version === "string" ? version : "" };
}

/** Ids are bytes in the binary encoding and hex strings in OTLP/JSON. */
function hex(id: unknown): string {
  if (id instanceof Uint8Array) return Buffer.from(id.buffer, id.byteOffset, id.byteLength).toString("hex");
  return typeof id === "string" ? id.toLowerCase() : "";
}

/** KeyValue list -> map of the scalar values; a key repeated keeps its last value. */
function attributeMap(attributes: unknown): Map<string, AttributeValue> {
  const map = new Map<string, AttributeValue>();
  for (const { key, value } of list(attributes)) {
    if (typeof key !== "string" || value === null || typeof value !== "object") continue;
    const scalar = scalarOf(value as Json);
    if (scalar !== undefined) map.set(key, scalar);
  }
  return map;
}

/** The set member of an AnyValue: own properties, in a decoded message as in OTLP/JSON. */
function scalarOf(value: Json): AttributeValue | undefined {
  const set = (name: string) => Object.hasOwn(value, name);
  if (set("stringValue") && typeof value.stringValue === "string") return value.stringValue;
  if (set("boolValue") && typeof value.boolValue === "boolean") return value.boolValue;
  if (set("doubleValue") && typeof value.doubleValue === "number") return value.doubleValue;
  if (!set("intValue")) return undefined;
  // int64: a Long (binary), a string or a number (OTLP/JSON may write either).
  const int = value.intValue;
  if (typeof int === "number") return int;
  const text = typeof int === "string" ? int : int !== null && typeof int === "object" ? String(int) : "";
  return /^-?\d+$/.test(text) ? Number(text) : undefined;
}
