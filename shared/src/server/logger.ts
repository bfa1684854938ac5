import { boundedLogEntry, cloudLoggingFields } from "./log-fields.ts";
import { writeStdoutLine } from "./stdout-lines.ts";

/** Structured JSON lines in Cloud Logging's format: `severity` and `message` plus any fields. */
export type Severity = "DEBUG" | "INFO" | "WARNING" | "ERROR";

export interface Logger {
  log(severity: Severity, message: string, fields?: Record<string, unknown>): void;
}

export function jsonLogger(write: (line: string) => void = writeStdoutLine, projectId?: string): Logger {
  return {
    log(severity, text, fieldsGiven) {
      const { message, fields } = boundedLogEntry(text, fieldsGiven);
      const entry = cloudLoggingFields(fields, projectId, { severity, message, time: new Date().toISOString() });
      write(`${JSON.stringify(entry)}\n`);
    },
  };
}
