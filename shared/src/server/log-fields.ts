import { isTraceContext } from "../trace.ts";

/**
 * A log line's fields as Cloud Logging reads them. `trace` (a TraceContext) becomes
 * `logging.googleapis.com/trace` (`projects/<project>/traces/<trace id>`), `logging.googleapis.com/spanId`
 * and `logging.googleapis.com/trace_sampled`; without a project id the trace id stays as `trace_id`.
 * `error` (an Error) becomes `error` ("Name: message") and `stack_trace`, which Error Reporting groups by.
 */
export function cloudLoggingFields(fields: Record<string, unknown> = {}, projectId?: string): Record<string, unknown> {
  const { trace, error, ...rest } = fields;
  const out: Record<string, unknown> = rest;
  if (isTraceContext(trace)) {
    if (projectId) out["logging.googleapis.com/trace"] = `projects/${projectId}/traces/${trace.traceId}`;
    else out.trace_id = trace.traceId;
    out["logging.googleapis.com/spanId"] = trace.spanId;
    out["logging.googleapis.com/trace_sampled"] = trace.sampled;
  }
  if (error instanceof Error) {
    out.error = `${error.name}: ${error.message}`;
    if (error.stack) out.stack_trace = error.stack;
  } else if (error !== undefined) {
    out.error = error;
  }
  return out;
}
