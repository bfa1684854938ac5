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
  name: string;
  attributes: ReadonlyMap<string, AttributeValue>;
  resource: ReadonlyMap<string, AttributeValue>;
}

/** Spans in one request, model calls or not; a collector's batch is 8192 at most by default. */
export const MAX_SPANS_PER_REQUEST = 10_000;

export type Decoded = { ok: true; spans: DecodedSpan[] } | { ok: false; status: 400 | 413; message: string };

const root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
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
  let request: unknown;
  try {
    request = format === "protobuf" ? decodeBinary(body) : parseJson(body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, status: 400, message: `The body is not an OTLP ExportTraceServiceRequest: ${reason}` };
  }
  if (typeof request === "string") return { ok: false, status: 400, message: request };
  return flatten(request as Json);
}

function decodeBinary(body: Buffer): unknown {
  const message = ExportTraceServiceRequest.decode(body);
  // The shape OTLP/JSON has, but for ids (bytes here) and 64-bit integers (strings, as JSON may write them).
  return ExportTraceServiceRequest.toObject(message, { longs: String, enums: Number });
}

/**
 * OTLP/JSON: JSON, no deeper than any body we take, and of the request's types (checked by building the
 * message from it, which throws on a wrong type). Its own value is kept: ids are hex there, not base64.
 */
function parseJson(body: Buffer): unknown {
  const value: unknown = JSON.parse(body.toString("utf8"));
  const deep = tooDeepPath(value, MAX_NESTING_DEPTH);
  if (deep) return `The body nests deeper than ${MAX_NESTING_DEPTH} levels at ${deep.join(".")}.`;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return "The body must be a JSON object (an ExportTraceServiceRequest).";
  }
  ExportTraceServiceRequest.fromObject(value as Json);
  return value;
}

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

function flatten(request: Json): Decoded {
  const spans: DecodedSpan[] = [];
  for (const resourceSpans of list(request.resourceSpans)) {
    const resource = attributeMap((resourceSpans.resource as Json | undefined)?.attributes);
    for (const scopeSpans of list(resourceSpans.scopeSpans)) {
      for (const span of list(scopeSpans.spans)) {
        if (spans.length === MAX_SPANS_PER_REQUEST) {
          return {
            ok: false,
            status: 413,
            message: `The request holds more than ${MAX_SPANS_PER_REQUEST} spans; export smaller batches.`,
          };
        }
        spans.push({
          traceId: hex(span.traceId),
          spanId: hex(span.spanId),
          name: typeof span.name === "string" ? span.name : "",
          attributes: attributeMap(span.attributes),
          resource,
        });
      }
    }
  }
  return { ok: true, spans };
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

function scalarOf(value: Json): AttributeValue | undefined {
  if (typeof value.stringValue === "string") return value.stringValue;
  if (typeof value.boolValue === "boolean") return value.boolValue;
  if (typeof value.doubleValue === "number") return value.doubleValue;
  // int64: a string (binary, and OTLP/JSON mostly) or a number (OTLP/JSON may write either).
  if (typeof value.intValue === "string" && /^-?\d+$/.test(value.intValue)) return Number(value.intValue);
  if (typeof value.intValue === "number") return value.intValue;
  return undefined;
}
