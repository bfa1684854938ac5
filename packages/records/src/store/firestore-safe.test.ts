import { describe, expect, it } from "vitest";
import { firestoreSafe, UNSTORABLE_KEYS_FIELD } from "./firestore-safe.ts";

describe("firestoreSafe", () => {
  it("leaves storable JSON as it is", () => {
    const value = { a: 1, b: [1, { c: "x" }], d: { e: null, f: true } };
    expect(firestoreSafe(value)).toEqual(value);
  });

  it("keeps the keys `__proto__`, `constructor` and `prototype` as data, never as the prototype", () => {
    const given = JSON.parse('{"constructor":1,"prototype":{"a":2},"__proto__":{"polluted":true},"n":{"__proto__":3}}');
    const safe = firestoreSafe(given) as Record<string, unknown>;
    expect(Object.getPrototypeOf(safe)).toBe(Object.prototype);
    expect(Object.keys(safe)).toEqual(["constructor", "prototype", "n", UNSTORABLE_KEYS_FIELD]);
    expect(safe.constructor).toBe(1);
    expect(safe.prototype).toEqual({ a: 2 });
    expect(JSON.parse(safe[UNSTORABLE_KEYS_FIELD] as string)).toEqual(JSON.parse('{"__proto__":{"polluted":true}}'));
    expect(JSON.stringify(safe.n)).toBe(`{"${UNSTORABLE_KEYS_FIELD}":"{\\"__proto__\\":3}"}`);
  });

  it("keeps arrays inside arrays as JSON text", () => {
    expect(firestoreSafe({ matrix: [[1, 2], [3]] })).toEqual({ matrix: ["[1,2]", "[3]"] });
  });

  it("moves unstorable keys aside, losslessly, and keeps the others in place", () => {
    const safe = firestoreSafe({ billable_customer_id: "c", "": 1, __name__: 2, ["k".repeat(1600)]: 3 }) as Record<
      string,
      unknown
    >;
    expect(safe.billable_customer_id).toBe("c");
    expect(JSON.parse(safe[UNSTORABLE_KEYS_FIELD] as string)).toEqual({ "": 1, __name__: 2, ["k".repeat(1600)]: 3 });
    expect(Object.keys(safe).sort()).toEqual([UNSTORABLE_KEYS_FIELD, "billable_customer_id"].sort());
  });

  it("stops nesting before Firestore's depth limit", () => {
    let deep: unknown = { leaf: 1 };
    for (let i = 0; i < 30; i++) deep = { next: deep };
    let node = firestoreSafe(deep);
    let depth = 0;
    while (typeof node === "object" && node !== null) {
      node = (node as { next: unknown }).next;
      depth++;
    }
    expect(depth).toBeLessThan(20);
    expect(typeof node).toBe("string");
  });

  it("keeps text that is not valid Unicode losslessly, as JSON that escapes it", () => {
    const loneSurrogateKey = "k\udc00";
    const safe = firestoreSafe({ ok: "fine", bad: "a\ud800b", [loneSurrogateKey]: 1, list: ["x", "\udbff"] }) as Record<
      string,
      unknown
    >;
    expect(safe.ok).toBe("fine");
    expect(safe.list).toEqual(["x", '"\\udbff"']);
    expect(JSON.parse(safe[UNSTORABLE_KEYS_FIELD] as string)).toEqual({ bad: "a\ud800b", [loneSurrogateKey]: 1 });
    expect(JSON.stringify(safe)).not.toMatch(/[\ud800-\udfff]/u);
  });
});
