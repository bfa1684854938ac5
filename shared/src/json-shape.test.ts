import { describe, expect, it } from "vitest";
import { tooDeepPath } from "./json-depth.ts";
import { bodyShape } from "./json-shape.ts";
import { MAX_MEMBERS_PER_OBJECT, MAX_NESTING_DEPTH, MAX_VALUES_PER_TRANSACTION } from "./limits.ts";

const members = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`m${i}`, i]));
const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });

describe("bodyShape", () => {
  it("counts the values of a transaction: members and array elements at any depth", () => {
    // provider, usage (1) with one element (1) of two members (type, metrics) and metrics' two.
    const body = { provider: "openai", usage: [{ type: "tokens", metrics: { input_tokens: 1, output_tokens: 2 } }] };
    expect(bodyShape(body)).toEqual({ ok: true, values: 7 });
  });

  it("names the first object past the members' bound, in a single transaction the body", () => {
    expect(bodyShape({ context: members(MAX_MEMBERS_PER_OBJECT) })).toMatchObject({ ok: true });
    expect(bodyShape({ context: members(MAX_MEMBERS_PER_OBJECT + 1) })).toEqual({
      ok: false,
      kind: "members",
      field: "context",
      message: `context has more than ${MAX_MEMBERS_PER_OBJECT} members`,
    });
  });

  it("refuses a bulk's heavy transaction alone, and goes on with the others", () => {
    const heavy = {
      raw: Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`p${i}`, { a: 1, b: 2, c: 3, d: 4 }])),
    };
    const shape = bodyShape({ transactions: [{ a: 1 }, heavy, { context: members(300) }, { b: 2 }] });
    expect(shape.ok).toBe(true);
    expect(shape.ok && [...(shape.invalid ?? new Map()).entries()]).toEqual([
      [
        1,
        {
          field: "transactions.1",
          code: "too_large",
          message: `transactions.1 holds more than ${MAX_VALUES_PER_TRANSACTION} values (object members and array elements)`,
        },
      ],
      [
        2,
        {
          field: "transactions.2.context",
          code: "too_large",
          message: `transactions.2.context has more than ${MAX_MEMBERS_PER_OBJECT} members`,
        },
      ],
    ]);
  });

  it("finds nesting where the nesting walk found it, at the same path", () => {
    for (const body of [nested(MAX_NESTING_DEPTH + 1), { transactions: [{}, nested(MAX_NESTING_DEPTH)] }]) {
      const shape = bodyShape(body);
      expect(shape).toMatchObject({ ok: false, kind: "depth" });
      expect(shape.ok === false && shape.field).toBe((tooDeepPath(body, MAX_NESTING_DEPTH) ?? []).join("."));
    }
    expect(bodyShape(nested(MAX_NESTING_DEPTH - 1))).toMatchObject({ ok: true });
  });
});
