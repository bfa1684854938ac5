import { describe, expect, it } from "vitest";
import { GroupPool, ReportCeiling, ReportStopped, ReportsBusy, ReportTooLarge } from "./report-ceiling";

const limits = { maxDocuments: 100, timeoutMs: 60_000, maxGroups: 4 };

describe("a report's groups", () => {
  it("are refused past the report's own ceiling with the figures, the report stopped as too large", () => {
    const ceiling = new ReportCeiling(limits);
    ceiling.spend(7);
    for (let i = 0; i < 4; i++) ceiling.newGroup();
    const error = (() => {
      try {
        ceiling.newGroup();
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(ReportTooLarge);
    expect((error as Error).message).toBe(
      "This report is too large: it would hold more than 4 groups (5 after 7 documents); narrow the range or the grouping.",
    );
    expect(error).toBeInstanceOf(ReportStopped);
    expect((error as ReportStopped).reason).toBe("too_large");
  });

  it("count against the instance's pool while their report runs, and are given back when it ends", async () => {
    const pool = new GroupPool(6);
    const first = new ReportCeiling(limits, Date.now, pool);
    const second = new ReportCeiling(limits, Date.now, pool);
    for (let i = 0; i < 4; i++) first.newGroup();
    second.newGroup();
    second.newGroup();
    expect(pool.held).toBe(6);
    expect(() => second.newGroup()).toThrow(ReportsBusy);
    const busy = new ReportsBusy(pool);
    expect(busy).toBeInstanceOf(ReportStopped);
    expect(busy.reason).toBe("busy");
    expect(busy.message).toBe("The reports running on this instance hold more than 6 groups together; retry shortly.");

    await first.around(async () => undefined);
    second.release();
    expect(pool.held).toBe(0);
    const third = new ReportCeiling(limits, Date.now, pool);
    await expect(
      third.around(async () => {
        for (let i = 0; i < 4; i++) third.newGroup();
        throw new Error("read failed");
      }),
    ).rejects.toThrow("read failed");
    expect(pool.held).toBe(0);
  });
});
