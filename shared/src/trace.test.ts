import { describe, expect, it } from "vitest";
import { formatTraceparent, parseTraceparent, traceAttributes } from "./trace.ts";

const HEADER = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

describe("traceparent", () => {
  it("reads the trace id, the caller's span id and the sampled flag", () => {
    expect(parseTraceparent(HEADER)).toEqual({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      sampled: true,
    });
    expect(parseTraceparent(HEADER.replace(/01$/, "00"))?.sampled).toBe(false);
    expect(parseTraceparent(` ${HEADER.toUpperCase()} `)?.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
  });

  it.each([
    undefined,
    "",
    "garbage",
    "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
    "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
    "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
    "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
  ])("ignores %j", (value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });

  it("is forwarded as the message attribute `traceparent`, and only when there is a trace", () => {
    const trace = parseTraceparent(HEADER);
    expect(trace && formatTraceparent(trace)).toBe(HEADER);
    expect(traceAttributes(trace)).toEqual({ traceparent: HEADER });
    expect(traceAttributes(undefined)).toEqual({});
  });
});
