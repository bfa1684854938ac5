import { describe, expect, it } from "vitest";
import { textLine } from "./text-logger.ts";

const at = new Date("2026-11-22T17:45:01.234Z");

describe("text log lines (the local stack)", () => {
  it("summarise a request: time, status, organization, counts, latency", () => {
    const line = textLine(at, "INFO", "POST /usage/transactions 202", {
      request_id: "r-1",
      organization_id: "dev",
      status: 202,
      events_queued: 3,
      events_failed: 0,
      latency_ms: 12.345,
      httpRequest: { requestMethod: "POST" },
    });
    expect(line).toBe("17:45:01.234 POST /usage/transactions 202 org=dev queued=3 failed=0 12.3 ms");
  });

  it("summarise a message with its cost in USD", () => {
    const line = textLine(at, "INFO", "message priced", {
      message_id: "m-1",
      organization_id: "dev",
      transaction_index: 2,
      cost_nanos: 4_500_000,
      latency_ms: 8,
    });
    expect(line).toBe("17:45:01.234 message priced org=dev #2 $0.004500000 USD 8.0 ms");
  });

  it("name the severity when it is not INFO, with the reason and an error's stack", () => {
    expect(
      textLine(at, "WARNING", "message unpriced", { organization_id: "dev", unpriced_reason: "unknown model" }),
    ).toBe("17:45:01.234 WARNING message unpriced org=dev (unknown model)");
    const error = new Error("Firestore down");
    const lines = textLine(at, "ERROR", "message failed", { error }).split("\n");
    expect(lines[0]).toBe("17:45:01.234 ERROR message failed");
    expect(lines[1]).toBe("  Error: Firestore down");
    expect(lines.length).toBeGreaterThan(2);
  });
});
