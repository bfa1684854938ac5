import { describe, expect, it } from "vitest";
import { withTimeout } from "./timeout.ts";

const later = <T>(ms: number, settle: () => T) =>
  new Promise<T>((resolve, reject) =>
    setTimeout(() => {
      try {
        resolve(settle());
      } catch (error) {
        reject(error);
      }
    }, ms),
  );

describe("withTimeout", () => {
  it("settles with the promise when it settles first", async () => {
    await expect(
      withTimeout(
        later(1, () => "done"),
        1_000,
        () => new Error("late"),
      ),
    ).resolves.toBe("done");
    await expect(
      withTimeout(
        later(1, () => {
          throw new Error("refused");
        }),
        1_000,
        () => new Error("late"),
      ),
    ).rejects.toThrow("refused");
  });

  it("rejects with the time-out's error when the promise is slower, and a later failure is not unhandled", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const slow = later(30, () => {
        throw new Error("failed after the time-out");
      });
      await expect(withTimeout(slow, 5, () => new Error("took too long"))).rejects.toThrow("took too long");
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("leaves no timer behind once the promise has settled", async () => {
    const before = process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
    await withTimeout(Promise.resolve(1), 60_000, () => new Error("late"));
    expect(process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length).toBe(before);
  });
});
