import http2 from "node:http2";
import type { StatusDetails } from "./grpc-status-details.ts";

/** gRPC's statuses and frames, as the protocol defines them (PROTOCOL-HTTP2.md), for grpc-channel.ts. */

/** gRPC status codes (https://grpc.github.io/grpc/core/md_doc_statuscodes.html), those used here. */
export const GrpcStatus = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  ABORTED: 10,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

/**
 * A call that ended without a response message: its gRPC status code and the server's message, and the
 * decoded `grpc-status-details-bin` where the server sent one (the fields google-gax's GoogleError has).
 */
export class GrpcCallError extends Error implements StatusDetails {
  override name = "GrpcCallError";
  statusDetails?: unknown[];
  reason?: string;
  domain?: string;
  errorInfoMetadata?: Record<string, string>;
  retryDelayMs?: number;
  constructor(
    readonly code: number,
    readonly details: string,
    statusDetails?: StatusDetails,
  ) {
    super(`${code} ${codeName(code)}: ${details}`);
    if (statusDetails) Object.assign(this, statusDetails);
  }
}

const codeName = (code: number) => Object.entries(GrpcStatus).find(([, value]) => value === code)?.[0] ?? "STATUS";

/** The five bytes before every message on the wire: a compressed flag and the message's length. */
export const FRAME_HEADER_BYTES = 5;

/** HTTP statuses without a gRPC status, mapped as the protocol's own table says (http-grpc-status-mapping.md). */
export function statusOfHttp(httpStatus: number): number {
  if (httpStatus === 400) return GrpcStatus.INTERNAL;
  if (httpStatus === 401) return GrpcStatus.UNAUTHENTICATED;
  if (httpStatus === 403) return GrpcStatus.PERMISSION_DENIED;
  if (httpStatus === 404) return GrpcStatus.UNIMPLEMENTED;
  if ([429, 502, 503, 504].includes(httpStatus)) return GrpcStatus.UNAVAILABLE;
  return GrpcStatus.UNKNOWN;
}

/** A stream reset without a status, mapped as grpc-js maps it. */
export function statusOfReset(code: number): number {
  const { constants } = http2;
  if (code === constants.NGHTTP2_REFUSED_STREAM) return GrpcStatus.UNAVAILABLE;
  if (code === constants.NGHTTP2_CANCEL) return GrpcStatus.CANCELLED;
  if (code === constants.NGHTTP2_ENHANCE_YOUR_CALM) return GrpcStatus.RESOURCE_EXHAUSTED;
  if (code === constants.NGHTTP2_INADEQUATE_SECURITY) return GrpcStatus.PERMISSION_DENIED;
  return GrpcStatus.INTERNAL;
}

export function decodeDetails(value: unknown): string {
  if (typeof value !== "string") return "";
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The one response message of a unary call, from the data frames' bytes. */
export function responseMessage(chunks: Buffer[]): Buffer {
  const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  if (bytes.length < FRAME_HEADER_BYTES) throw new GrpcCallError(GrpcStatus.INTERNAL, "no response message");
  if (bytes[0] !== 0) throw new GrpcCallError(GrpcStatus.INTERNAL, "a compressed response, never asked for");
  const length = bytes.readUInt32BE(1);
  if (bytes.length !== FRAME_HEADER_BYTES + length) {
    throw new GrpcCallError(GrpcStatus.INTERNAL, "the response is not one whole message");
  }
  return bytes.subarray(FRAME_HEADER_BYTES);
}
