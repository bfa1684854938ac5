import { isTraceContext } from "../trace.ts";
import { utf8ByteLength, utf8Prefix } from "../unicode.ts";

/** The most of any one text a log line carries: a client's model or path can be long, a line must not be. */
export const MAX_LOG_TEXT_BYTES = 1024;

/** Text cut to MAX_LOG_TEXT_BYTES, saying how long it was. */
export function logText(text: string): string {
  const kept = utf8Prefix(text, MAX_LOG_TEXT_BYTES);
  return kept === text ? text : `${kept}...(${utf8ByteLength(text)} bytes)`;
}

const isPlain = (value: object) => {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/**
 * Every text in a log field, however deep, cut by `logText`; nesting past a few levels is summarised. A
 * value with nothing to cut is returned as it is (a request's line is written on the hot path).
 */
function boundedValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return value.length * 3 <= MAX_LOG_TEXT_BYTES ? value : logText(value);
  if (typeof value !== "object" || value === null) return value;
  if (!Array.isArray(value) && !isPlain(value)) return value;
  if (depth >= 8) return "[nested]";
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const bounded = boundedValue(item, depth + 1);
      if (bounded === item) return;
      out ??= value.slice();
      out[i] = bounded;
    });
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const inner = record[key];
    const bounded = boundedValue(inner, depth + 1);
    const name = logText(key);
    if (bounded === inner && name === key) continue;
    out ??= { ...record };
    if (name !== key) delete out[key];
    out[name] = bounded;
  }
  return out ?? value;
}

/** A line's message and fields with every text bounded: what both loggers write. */
export function boundedLogEntry(
  message: string,
  fields: Record<string, unknown> = {},
): { message: string; fields: Record<string, unknown> } {
  return { message: logText(message), fields: boundedValue(fields, 0) as Record<string, unknown> };
}

/** An error as a log line shows it: its first line bounded, its stack frames kept. */
export function errorText(error: Error): { error: string; stack?: string } {
  const head = `${error.name}: ${error.message}`;
  const text = logText(head);
  if (!error.stack) return { error: text };
  return {
    error: text,
    stack: error.stack.startsWith(head) ? text + error.stack.slice(head.length) : logText(error.stack),
  };
}

/**
 * A log line's fields as Cloud Logging reads them. `trace` (a TraceContext) becomes
 * `logging.googleapis.com/trace` (`projects/<project>/traces/<trace id>`), `logging.googleapis.com/spanId`
 * and `logging.googleapis.com/trace_sampled`; without a project id the trace id stays as `trace_id`.
 * `error` (an Error) becomes `error` ("Name: message") and `stack_trace`, which Error Reporting groups by.
 * Written into `out` after what it holds (a line's own first fields), so a line is built as one object.
 */
export function cloudLoggingFields(
  fields: Record<string, unknown> = {},
  projectId?: string,
  out: Record<string, unknown> = {},
): Record<string, unknown> {
  for (const name in fields) if (name !== "trace" && name !== "error") out[name] = fields[name];
  const { trace, error } = fields;
  if (isTraceContext(trace)) {
    if (projectId) out["logging.googleapis.com/trace"] = `projects/${projectId}/traces/${trace.traceId}`;
    else out.trace_id = trace.traceId;
    out["logging.googleapis.com/spanId"] = trace.spanId;
    out["logging.googleapis.com/trace_sampled"] = trace.sampled;
  }
  if (error instanceof Error) {
    const { error: text, stack } = errorText(error);
    out.error = text;
    if (stack) out.stack_trace = stack;
  } else if (error !== undefined) {
    out.error = error;
  }
  return out;
}
