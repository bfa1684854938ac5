import { describe, expect, it } from "vitest";
import { retryDelays } from "./retry-delays.ts";

describe("retry delays", () => {
  it("are full jitter under a cap that grows by the multiplier up to its maximum, as google-gax draws them", () => {
    const draws = [1, 0.5, 0, 0.999, 1];
    const next = retryDelays({ initialDelayMs: 100, multiplier: 4, maxDelayMs: 1_000 }, () => draws.shift() as number);
    expect([next(undefined), next(undefined), next(undefined), next(undefined), next(undefined)]).toEqual([
      100, 200, 0, 999, 1_000,
    ]);
  });

  it("spread callers that failed together over the whole range", () => {
    const waits = Array.from({ length: 200 }, () =>
      retryDelays({ initialDelayMs: 1_000, multiplier: 1.3, maxDelayMs: 60_000 })(undefined),
    );
    expect(Math.min(...waits)).toBeLessThan(250);
    expect(Math.max(...waits)).toBeGreaterThan(750);
  });

  it("wait at least what the server's RetryInfo asks for", () => {
    const next = retryDelays({ initialDelayMs: 100, multiplier: 1.3, maxDelayMs: 60_000 }, () => 0.5);
    expect(next({ retryDelayMs: 2_000 })).toBe(2_000);
    expect(next({ retryDelayMs: 10 })).toBe(65);
  });
});
