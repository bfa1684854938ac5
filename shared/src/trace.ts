/**
 * The W3C trace context Cloud Run sends in `traceparent` (`00-<trace id>-<span id>-<flags>`). The gateway
 * reads it from the request and forwards it as the message attribute of the same name, so the gateway's
 * and the worker's log lines of one request join under one trace in Cloud Logging.
 */
export interface TraceContext {
  traceId: string;
  spanId: string;
  sampled: boolean;
}

export const TRACEPARENT_ATTRIBUTE = "traceparent";

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZEROS = /^0+$/;

/** The trace context of a `traceparent` value, or undefined when it is absent or malformed. */
export function parseTraceparent(value: string | undefined): TraceContext | undefined {
  const match = TRACEPARENT.exec(value?.trim().toLowerCase() ?? "");
  if (!match) return undefined;
  const [, version, traceId = "", spanId = "", flags = "00"] = match;
  if (version === "ff" || ZEROS.test(traceId) || ZEROS.test(spanId)) return undefined;
  return { traceId, spanId, sampled: (Number.parseInt(flags, 16) & 1) === 1 };
}

export const formatTraceparent = (trace: TraceContext): string =>
  `00-${trace.traceId}-${trace.spanId}-${trace.sampled ? "01" : "00"}`;

/** The message attributes that carry a request's trace to the worker (none without a trace). */
export const traceAttributes = (trace: TraceContext | undefined): Record<string, string> =>
  trace ? { [TRACEPARENT_ATTRIBUTE]: formatTraceparent(trace) } : {};

export const isTraceContext = (value: unknown): value is TraceContext =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as TraceContext).traceId === "string" &&
  typeof (value as TraceContext).spanId === "string";
