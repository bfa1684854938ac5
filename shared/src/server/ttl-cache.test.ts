import { describe, expect, it } from "vitest";
import { ttlCache } from "./ttl-cache.ts";

/** A load per key that the test settles by hand, counting the loads. */
function loads() {
  const started: Array<{ key: string; resolve(value: string): void; reject(error: Error): void }> = [];
  const load = (key: string) =>
    new Promise<string>((resolve, reject) => {
      started.push({ key, resolve, reject });
    });
  return { started, load };
}

describe("ttlCache", () => {
  it("shares one load between callers that miss the same key at once", async () => {
    const { started, load } = loads();
    const get = ttlCache(60_000, load);
    const waiting = [get("org-a"), get("org-a"), get("org-b"), get("org-a")];
    expect(started.map((call) => call.key)).toEqual(["org-a", "org-b"]);
    started[0]?.resolve("a");
    started[1]?.resolve("b");
    expect(await Promise.all(waiting)).toEqual(["a", "a", "b", "a"]);
    expect(await get("org-a")).toBe("a");
    expect(started).toHaveLength(2);
    // A hit hands back the settled promise it keeps, making none (this is on every message's path).
    expect(get("org-a")).toBe(get("org-a"));
  });

  it("loads again once the value has expired, and again after a failed load", async () => {
    const { started, load } = loads();
    let time = 0;
    const get = ttlCache(1_000, load, () => time);
    const failing = get("org");
    started[0]?.reject(new Error("Firestore is down"));
    await expect(failing).rejects.toThrow("Firestore is down");
    const retried = get("org");
    expect(started).toHaveLength(2);
    started[1]?.resolve("v1");
    expect(await retried).toBe("v1");
    time = 999;
    expect(await get("org")).toBe("v1");
    time = 1_001;
    const reloaded = get("org");
    expect(started).toHaveLength(3);
    started[2]?.resolve("v2");
    expect(await reloaded).toBe("v2");
  });

  it("with no time to live, loads for every caller", async () => {
    const { started, load } = loads();
    const get = ttlCache(0, load);
    const both = [get("org"), get("org")];
    expect(started).toHaveLength(2);
    for (const call of started) call.resolve("v");
    expect(await Promise.all(both)).toEqual(["v", "v"]);
  });
});
