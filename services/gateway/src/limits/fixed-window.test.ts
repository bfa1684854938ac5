import { describe, expect, it } from "vitest";
import { fixedWindow, withBurst } from "./fixed-window.ts";

describe("fixedWindow", () => {
  it("counts within a window from the first consumption and starts again after it ends", () => {
    let now = 10_000;
    const window = fixedWindow(5, 1000, () => now);
    expect(window.consume("a", 2)).toEqual({ remainingPoints: 3, msBeforeNext: 1000, refused: false });
    now = 10_400;
    expect(window.consume("a", 3)).toEqual({ remainingPoints: 0, msBeforeNext: 600, refused: false });
    // Past the points: refused, and the refused points still count.
    expect(window.consume("a", 1)).toEqual({ remainingPoints: 0, msBeforeNext: 600, refused: true });
    expect(window.consume("b", 1)).toEqual({ remainingPoints: 4, msBeforeNext: 1000, refused: false });
    now = 11_000; // a's window ends at 11,000: a new one starts
    expect(window.consume("a", 1)).toEqual({ remainingPoints: 4, msBeforeNext: 1000, refused: false });
    now = 11_399; // b's window (from 10,400) ends at 11,400
    expect(window.consume("b", 1)).toEqual({ remainingPoints: 3, msBeforeNext: 1, refused: false });
  });
});

describe("withBurst", () => {
  it("takes the burst only when the steady window refuses, with the sooner end", () => {
    let now = 0;
    const limiter = withBurst(
      fixedWindow(2, 1000, () => now),
      fixedWindow(3, 10_000, () => now),
    );
    expect(limiter.consume("k", 2)).toEqual({ remainingPoints: 0, msBeforeNext: 1000, refused: false });
    now = 100;
    // Steady at 4 of 2: the burst gives 2 of its 3; the steady window ends first (900 ms).
    expect(limiter.consume("k", 2)).toEqual({ remainingPoints: 0, msBeforeNext: 900, refused: false });
    now = 1000;
    // A new steady window: the burst untouched.
    expect(limiter.consume("k", 1)).toEqual({ remainingPoints: 1, msBeforeNext: 1000, refused: false });
    expect(limiter.consume("k", 2)).toEqual({ remainingPoints: 0, msBeforeNext: 1000, refused: true });
  });
});
