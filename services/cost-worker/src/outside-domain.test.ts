import domain from "node:domain";
import { describe, expect, it } from "vitest";
import { activeDomain, outsideDomain } from "./outside-domain.ts";

/** Runs `work` inside a fresh domain, as the functions framework runs a request, and gives its result. */
const inDomain = <T>(work: (active: domain.Domain) => T): T => {
  const active = domain.create();
  return active.run(() => work(active));
};

describe("outsideDomain", () => {
  it("runs the work, and what it goes on to do after an await, with no domain, and gives the domain back", async () => {
    const seen = await inDomain(async (active) => {
      const work = outsideDomain(async () => {
        const before = activeDomain();
        await new Promise((resolve) => setTimeout(resolve, 5));
        const timer = await new Promise<unknown>((resolve) => setImmediate(() => resolve(activeDomain())));
        return { before, after: activeDomain(), timer };
      });
      const restored = activeDomain() === active;
      return { ...(await work), restored, afterAwait: activeDomain() === active };
    });
    expect(seen).toEqual({
      before: undefined,
      after: undefined,
      timer: undefined,
      restored: true,
      afterAwait: true,
    });
  });

  it("gives the domain back when the work throws", () => {
    const restored = inDomain((active) => {
      expect(() =>
        outsideDomain(() => {
          throw new Error("boom");
        }),
      ).toThrow("boom");
      return activeDomain() === active;
    });
    expect(restored).toBe(true);
  });

  it("runs the work as it is where no domain is active", () => {
    expect(activeDomain()).toBeUndefined();
    expect(outsideDomain(() => 42)).toBe(42);
  });
});
