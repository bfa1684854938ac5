import { describe, expect, it } from "vitest";
import { boundedLogEntry, MAX_LOG_TEXT_BYTES } from "./log-fields.ts";
import { jsonLogger } from "./logger.ts";
import { textLogger } from "./text-logger.ts";

const huge = "m".repeat(250_000);
const lines = (log: (write: (line: string) => void) => void) => {
  const written: string[] = [];
  log((line) => written.push(line));
  return written;
};

describe("log lines carry at most 1 KiB of any one text", () => {
  it("in the message, every field however nested, field names and an error's first line (JSON lines)", () => {
    const [line = ""] = lines((write) =>
      jsonLogger(write).log("ERROR", `GET /${huge} 404`, {
        model: huge,
        nested: { deeper: [{ model: huge }] },
        [huge]: 1,
        error: new Error(`unknown model ${huge}`),
      }),
    );
    const entry = JSON.parse(line);
    // The stack's frames are kept whole (at most Error.stackTraceLimit of them): their paths are as long
    // as the checkout's, so the bound is on the rest of the line, and on the stack's first line.
    const frames = entry.stack_trace.slice(entry.stack_trace.indexOf("\n"));
    expect(line.length - frames.length).toBeLessThan(7 * MAX_LOG_TEXT_BYTES);
    expect(entry.stack_trace.indexOf("\n")).toBeLessThan(MAX_LOG_TEXT_BYTES + 64);
    expect(entry.message).toBe(`GET /${"m".repeat(MAX_LOG_TEXT_BYTES - 5)}...(250009 bytes)`);
    expect(entry.model).toBe(`${"m".repeat(MAX_LOG_TEXT_BYTES)}...(250000 bytes)`);
    expect(entry.nested.deeper[0].model).toBe(entry.model);
    expect(entry.error.startsWith("Error: unknown model m")).toBe(true);
    expect(entry.stack_trace).toContain("log-bounds.test.ts");
  });

  it("in the local stack's text lines too", () => {
    const [line = ""] = lines((write) => textLogger(write).log("WARNING", "unpriced", { unpriced_reason: huge }));
    expect(line.length).toBeLessThan(2 * MAX_LOG_TEXT_BYTES);
    expect(line).toContain("...(250000 bytes)");
  });

  it("cut text by UTF-8 bytes without splitting a character", () => {
    const { fields } = boundedLogEntry("m", { customer: "😀".repeat(1000) });
    expect(fields.customer).toBe(`${"😀".repeat(MAX_LOG_TEXT_BYTES / 4)}...(4000 bytes)`);
  });

  it("leave what is short as it is, the same objects", () => {
    const fields = { request_id: "r", details: [{ field: "model" }], at: new Date(0) };
    expect(boundedLogEntry("POST /usage/transactions 202", fields).fields).toBe(fields);
  });
});
