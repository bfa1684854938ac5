import type { Logger, Severity } from "@usage-ingestion/shared/server";

export interface LoggedLine {
  severity: Severity;
  message: string;
  fields?: Record<string, unknown>;
}

/** A logger that keeps its lines, so a test can read what the gateway would have logged. */
export function memoryLogger() {
  const lines: LoggedLine[] = [];
  return {
    lines,
    log(severity: Severity, message: string, fields?: Record<string, unknown>): void {
      lines.push({ severity, message, ...(fields ? { fields } : {}) });
    },
    /** Every line as JSON: for checking that something never reaches the log. */
    text: () => JSON.stringify(lines, (_key, value) => (value instanceof Error ? value.message : value)),
  } satisfies Logger & Record<string, unknown>;
}

export type MemoryLogger = ReturnType<typeof memoryLogger>;
