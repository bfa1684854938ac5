import fc from "fast-check";
import { BurstyRateLimiter, RateLimiterMemory, type RateLimiterRes } from "rate-limiter-flexible";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fixedWindow, type WindowCount, withBurst } from "./fixed-window.ts";

// Our synchronous windows against the library whose counting they copy, on the same clock: any sequence
// of consumptions gets the same answers from both (refused or not, points left, time to the window's end).
beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

const step = fc.record({
  afterMs: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 2_500 }), fc.constant(1_000)),
  key: fc.constantFrom("org-a", "org-b", "key-c"),
  taken: fc.integer({ min: 1, max: 4 }),
});

/** The library's answer in our shape: a rejection is a refusal with the same figures. */
async function libraryCount(consume: () => Promise<RateLimiterRes>): Promise<WindowCount> {
  const answer = await consume().then(
    (res) => ({ res, refused: false }),
    (res: RateLimiterRes) => ({ res, refused: true }),
  );
  return {
    remainingPoints: answer.res.remainingPoints,
    msBeforeNext: answer.res.msBeforeNext,
    refused: answer.refused,
  };
}

/** A steady window of 4 points a second with a burst of 6 every 2 s, ours and the library's, step by step. */
async function sameWithBurst(steps: Array<{ afterMs: number; key: string; taken: number }>) {
  const now = () => Date.now();
  const ours = withBurst(fixedWindow(4, 1_000, now), fixedWindow(6, 2_000, now));
  const library = new BurstyRateLimiter(
    new RateLimiterMemory({ points: 4, duration: 1 }),
    new RateLimiterMemory({ points: 6, duration: 2, keyPrefix: "burst" }),
  );
  const answers: WindowCount[] = [];
  for (const { afterMs, key, taken } of steps) {
    vi.advanceTimersByTime(afterMs);
    const theirs = await libraryCount(() => library.consume(key, taken));
    const mine = ours.consume(key, taken);
    expect(mine).toEqual(theirs);
    answers.push(mine);
  }
  return answers;
}

describe("fixed windows against rate-limiter-flexible", () => {
  it("count every sequence of consumptions as RateLimiterMemory does", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps) => {
        const ours = fixedWindow(6, 1_000, () => Date.now());
        const library = new RateLimiterMemory({ points: 6, duration: 1 });
        for (const { afterMs, key, taken } of steps) {
          vi.advanceTimersByTime(afterMs);
          const theirs = await libraryCount(() => library.consume(key, taken));
          expect(ours.consume(key, taken)).toEqual(theirs);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("count every sequence with a burst as BurstyRateLimiter does", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps) => {
        await sameWithBurst(steps);
      }),
      { numRuns: 200 },
    );
  });

  it("give the burst window's end when it comes before the steady one's, as BurstyRateLimiter does", async () => {
    // Steady [0, 1000) filled; the burst's window opens at 900 and ends at 2900; at 2500 the steady
    // window of 2000 refuses again, and the burst's end (400 ms away) is the sooner of the two (500 ms).
    const answers = await sameWithBurst([
      { afterMs: 0, key: "org-a", taken: 4 },
      { afterMs: 900, key: "org-a", taken: 1 },
      { afterMs: 1_100, key: "org-a", taken: 4 },
      { afterMs: 500, key: "org-a", taken: 1 },
    ]);
    expect(answers.at(-1)).toEqual({ remainingPoints: 0, msBeforeNext: 400, refused: false });
  });
});
