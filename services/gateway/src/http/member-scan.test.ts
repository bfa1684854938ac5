import { MAX_VALUES_PER_BODY } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { tooManyMembersToParse } from "./member-scan.ts";

const body = (members: number, value = "1") =>
  Buffer.from(`{${Array.from({ length: members }, (_, i) => `"m${i}":${value}`).join(",")}}`);

describe("tooManyMembersToParse", () => {
  it("counts the members of a large body's text, without parsing it", () => {
    expect(tooManyMembersToParse(body(MAX_VALUES_PER_BODY + 1))).toBe(true);
    expect(tooManyMembersToParse(body(MAX_VALUES_PER_BODY))).toBe(false);
  });

  it("does not count a quote and colon escaped inside a string", () => {
    // Each value is a string holding an escaped `":`: only the names count.
    const text = body(MAX_VALUES_PER_BODY - 10, '"a\\\\":b"'.replace('\\\\"', '\\"'));
    expect(text.toString().slice(0, 40)).toContain('\\":');
    expect(tooManyMembersToParse(text)).toBe(false);
  });

  it("leaves small bodies alone: they cannot hold that many members", () => {
    expect(tooManyMembersToParse(Buffer.from('{"a":1}'))).toBe(false);
  });
});
