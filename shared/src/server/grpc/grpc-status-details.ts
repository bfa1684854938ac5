import { GoogleError } from "google-gax";

/**
 * The `grpc-status-details-bin` trailer (a `google.rpc.Status`, base64) decoded by google-gax's own
 * decoder, as the generated clients decode it: every detail, the ErrorInfo promoted (reason, domain,
 * metadata), and a RetryInfo's delay, which our retries wait at least. Read only when a call fails.
 */
export interface StatusDetails {
  /** Every detail google-gax could decode (ErrorInfo, RetryInfo, BadRequest, QuotaFailure, ...). */
  statusDetails?: unknown[];
  reason?: string;
  domain?: string;
  errorInfoMetadata?: Record<string, string>;
  /** RetryInfo.retry_delay, in milliseconds: the server's word on when to try again. */
  retryDelayMs?: number;
}

interface Decoded {
  metadata: { get(key: string): Buffer[] };
  statusDetails?: unknown[] | string;
  reason?: string;
  domain?: string;
  errorInfoMetadata?: Record<string, string>;
}

const typeName = (detail: unknown) =>
  (Object.getPrototypeOf(detail) as { $type?: { fullName?: string } } | null)?.$type?.fullName;

export function decodeStatusDetails(header: unknown): StatusDetails | undefined {
  if (typeof header !== "string" || header.length === 0) return undefined;
  const bytes = Buffer.from(header, "base64");
  const decoded: Decoded = { metadata: { get: (key) => (key === "grpc-status-details-bin" ? [bytes] : []) } };
  // google-gax keeps what it cannot decode out, and never throws.
  GoogleError.parseGRPCStatusDetails(decoded as unknown as GoogleError);
  const details = Array.isArray(decoded.statusDetails) ? decoded.statusDetails : undefined;
  if (!details) return undefined;
  const out: StatusDetails = { statusDetails: details };
  if (decoded.reason !== undefined) out.reason = decoded.reason;
  if (decoded.domain !== undefined) out.domain = decoded.domain;
  if (decoded.errorInfoMetadata !== undefined) out.errorInfoMetadata = { ...decoded.errorInfoMetadata };
  const retryInfo = details.find((detail) => typeName(detail) === ".google.rpc.RetryInfo") as
    | { retryDelay?: { seconds?: unknown; nanos?: unknown } }
    | undefined;
  if (retryInfo?.retryDelay) {
    const seconds = Number(String(retryInfo.retryDelay.seconds ?? 0));
    const nanos = Number(retryInfo.retryDelay.nanos ?? 0);
    if (Number.isFinite(seconds) && Number.isFinite(nanos)) out.retryDelayMs = seconds * 1_000 + nanos / 1e6;
  }
  return out;
}
