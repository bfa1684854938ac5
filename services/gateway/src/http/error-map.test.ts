import { GroupPool, ReportsBusy, ReportTooLarge } from "@usage-ingestion/reports";
import { describe, expect, it } from "vitest";
import { errorReply } from "./error-map.ts";

const limits = { maxDocuments: 12, timeoutMs: 10_000, maxGroups: 4 };

describe("the error map", () => {
  it("answers a report past its own ceilings 422 report_too_large, with the figures", () => {
    const error = new ReportTooLarge(13, 40, limits);
    expect(errorReply(error)).toEqual({
      status: 422,
      body: {
        error: {
          code: "report_too_large",
          message:
            "This report is too large: it would read more than 12 documents (13 read so far); narrow the range or the grouping.",
        },
      },
    });
  });

  it("answers a report the busy instance stopped 429 rate_limited, to be retried in a second", () => {
    expect(errorReply(new ReportsBusy(new GroupPool(6)))).toEqual({
      status: 429,
      body: {
        error: {
          code: "rate_limited",
          message: "The reports running on this instance hold more than 6 groups together; retry shortly.",
        },
      },
      headers: { "Retry-After": "1" },
    });
  });

  it("has no answer for any other error: that one is the last resort's 500", () => {
    expect(errorReply(new Error("boom"))).toBeUndefined();
    expect(errorReply("a string")).toBeUndefined();
    expect(errorReply(undefined)).toBeUndefined();
  });
});
