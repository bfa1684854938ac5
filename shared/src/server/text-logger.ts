import { nanosToUsd } from "../money.ts";
import { boundedLogEntry, errorText } from "./log-fields.ts";
import type { Logger, Severity } from "./logger.ts";
import { writeStdoutLine } from "./stdout-lines.ts";

/**
 * Short human lines for the local stack (`LOG_FORMAT=text`): the time, the severity unless INFO, the
 * message, then what an operator looks for: organization, counts, cost in USD, latency, and an error's
 * stack on the lines below. Production keeps the JSON lines Cloud Logging reads.
 */
export function textLine(at: Date, severity: Severity, message: string, fields: Record<string, unknown> = {}): string {
  const parts = [at.toISOString().slice(11, 23)];
  if (severity !== "INFO") parts.push(severity);
  parts.push(message);
  const field = (name: string) => fields[name];
  if (field("organization_id") !== undefined) parts.push(`org=${field("organization_id")}`);
  if (field("events_queued") !== undefined) parts.push(`queued=${field("events_queued")}`);
  if (field("events_failed") !== undefined) parts.push(`failed=${field("events_failed")}`);
  if (field("transaction_index") !== undefined) parts.push(`#${field("transaction_index")}`);
  const nanos = field("cost_nanos");
  if (typeof nanos === "number" || typeof nanos === "bigint") parts.push(`$${nanosToUsd(BigInt(nanos))} USD`);
  for (const name of ["unpriced_reason", "reason"]) if (field(name)) parts.push(`(${field(name)})`);
  if (typeof field("latency_ms") === "number") parts.push(`${(field("latency_ms") as number).toFixed(1)} ms`);
  const error = field("error");
  if (error instanceof Error) {
    const { error: head, stack } = errorText(error);
    return `${parts.join(" ")}\n  ${stack ?? head}`;
  }
  if (error !== undefined) parts.push(`error=${String(error)}`);
  return parts.join(" ");
}

export function textLogger(write: (line: string) => void = writeStdoutLine): Logger {
  return {
    log(severity, text, fieldsGiven) {
      const { message, fields } = boundedLogEntry(text, fieldsGiven);
      write(`${textLine(new Date(), severity, message, fields)}\n`);
    },
  };
}
