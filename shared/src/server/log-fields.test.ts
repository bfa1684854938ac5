import { describe, expect, it } from "vitest";
import { parseTraceparent } from "../trace.ts";
import { jsonLogger } from "./logger.ts";

const trace = parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");

function logged(projectId: string | undefined, fields: Record<string, unknown>) {
  const lines: string[] = [];
  jsonLogger((line) => lines.push(line), projectId).log("ERROR", "something", fields);
  expect(lines).toHaveLength(1);
  expect(lines[0]?.endsWith("\n")).toBe(true);
  return JSON.parse(lines[0] as string);
}

describe("JSON log lines for Cloud Logging", () => {
  it("carry the trace and span in Cloud Logging's fields", () => {
    const entry = logged("acme-prod", { trace, request_id: "r-1" });
    expect(entry).toMatchObject({
      severity: "ERROR",
      message: "something",
      request_id: "r-1",
      "logging.googleapis.com/trace": "projects/acme-prod/traces/4bf92f3577b34da6a3ce929d0e0e4736",
      "logging.googleapis.com/spanId": "00f067aa0ba902b7",
      "logging.googleapis.com/trace_sampled": true,
    });
    expect(entry.trace).toBeUndefined();
  });

  it("keep the trace id without a project to name it under", () => {
    const entry = logged(undefined, { trace });
    expect(entry.trace_id).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(entry["logging.googleapis.com/trace"]).toBeUndefined();
  });

  it("give an error its stack_trace, for Error Reporting", () => {
    const error = new TypeError("boom");
    const entry = logged("acme-prod", { error });
    expect(entry.error).toBe("TypeError: boom");
    expect(entry.stack_trace).toBe(error.stack);
    expect(entry.stack_trace).toMatch(/^TypeError: boom\n\s+at /);
  });

  it("leave lines without a trace or error as they were", () => {
    const entry = logged("acme-prod", { status: 202, error: "plain text" });
    expect(entry).toEqual({
      severity: "ERROR",
      message: "something",
      time: expect.any(String),
      status: 202,
      error: "plain text",
    });
  });
});
