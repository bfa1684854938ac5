import { describe, expect, it } from "vitest";
import { committedConsoleBundle, consoleBundle } from "./console-bundle.ts";

describe("the console's committed bundle", () => {
  it("is what its sources build (run `npm run console:build` after changing them)", async () => {
    expect(committedConsoleBundle() === (await consoleBundle())).toBe(true);
  });
});
