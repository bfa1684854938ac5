import type { ErrorReply } from "@usage-ingestion/shared";
import type { Response } from "express";
import { ExportTraceServiceResponse, type OtlpFormat, RpcStatus } from "./decode.ts";

const CONTENT_TYPES: Record<OtlpFormat, string> = {
  protobuf: "application/x-protobuf",
  json: "application/json; charset=utf-8",
};

/** The gRPC code a Status body carries for each HTTP status we answer with (OTLP/HTTP reuses google.rpc.Status). */
const RPC_CODES: Record<number, number> = {
  400: 3, // INVALID_ARGUMENT
  401: 16, // UNAUTHENTICATED
  404: 5, // NOT_FOUND
  405: 12, // UNIMPLEMENTED
  413: 3,
  415: 3,
  429: 8, // RESOURCE_EXHAUSTED
  503: 14, // UNAVAILABLE
};

/** Seconds an exporter waits before retrying what we could not take (our side's failures). */
export const RETRY_AFTER_SECONDS = 5;

/** An error as OTLP/HTTP answers it: its HTTP status, a google.rpc.Status body, the headers it needs. */
export interface OtlpError {
  status: 400 | 401 | 404 | 405 | 413 | 415 | 429 | 503;
  message: string;
  headers?: Record<string, string>;
}

/**
 * One of our error replies as OTLP answers it. A 500 becomes a 503 with Retry-After: OTLP exporters
 * retry only 429, 502, 503 and 504, and every failure on our side (key store, Pub/Sub) is worth retrying.
 */
export function otlpErrorOf(reply: Pick<ErrorReply, "status" | "body" | "headers">): OtlpError {
  const message = reply.body.error.message;
  if (reply.status === 500 || !(reply.status in RPC_CODES)) {
    return { status: 503, message, headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } };
  }
  return { status: reply.status as OtlpError["status"], message, ...(reply.headers ? { headers: reply.headers } : {}) };
}

/** A Status body in the request's encoding (JSON when the request's could not be told). */
export function sendOtlpError(res: Response, format: OtlpFormat, error: OtlpError): void {
  if (error.headers) res.set(error.headers);
  const status = { code: RPC_CODES[error.status], message: error.message };
  const body = format === "protobuf" ? RpcStatus.encode(RpcStatus.fromObject(status)).finish() : JSON.stringify(status);
  write(res, error.status, format, body);
}

/**
 * 200 with an ExportTraceServiceResponse: empty when every span was taken, else `partial_success` with
 * the spans rejected and why.
 */
export function sendExportResponse(res: Response, format: OtlpFormat, rejected: number, errorMessage: string): void {
  let body: Uint8Array | string;
  if (format === "protobuf") {
    const partial = rejected > 0 ? { partialSuccess: { rejectedSpans: rejected, errorMessage } } : {};
    body = ExportTraceServiceResponse.encode(ExportTraceServiceResponse.fromObject(partial)).finish();
  } else {
    // Proto3 JSON: 64-bit integers as strings.
    body = JSON.stringify(rejected > 0 ? { partialSuccess: { rejectedSpans: String(rejected), errorMessage } } : {});
  }
  write(res, 200, format, body);
}

function write(res: Response, status: number, format: OtlpFormat, body: Uint8Array | string) {
  const bytes =
    typeof body === "string" ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  res.statusCode = status;
  res.setHeader("Content-Type", CONTENT_TYPES[format]);
  res.setHeader("Content-Length", bytes.length);
  res.end(bytes);
}
