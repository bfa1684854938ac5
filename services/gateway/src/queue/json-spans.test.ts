import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type JsonSpan, memberArrayElements, wholeSpan } from "./json-spans.ts";

const textOf = (body: Buffer, span: JsonSpan) => body.toString("utf8", span.start, span.end);

/** Members of a parsed value's objects at every depth: the count a text without repeated keys holds. */
function membersOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + membersOf(item), 0);
  return Object.values(value).reduce((sum: number, item) => sum + 1 + membersOf(item), 0);
}

/** Strings made mostly of what a byte scanner could mistake for structure. */
const tricky = fc.oneof(
  fc.constantFrom('"', "\\", "]", "}", "[", "{", ":", ",", "-", "0", "e", "é", "𝄞", "\u2028"),
  fc.string(),
);
const anyJson = fc.jsonValue({ stringUnit: tricky, maxDepth: 4 });
const indent = fc.constantFrom(undefined, 2, "\t", " \r\n ");

describe("the values a parsed JSON text holds, found in its bytes", () => {
  it("finds each element of the array under a top-level key, as JSON.parse reads them", () => {
    fc.assert(
      fc.property(fc.array(anyJson, { maxLength: 6 }), anyJson, anyJson, indent, (elements, before, after, space) => {
        const text = JSON.stringify({ before, transactions: elements, after }, null, space);
        const body = Buffer.from(text, "utf8");
        const spans = memberArrayElements(body, "transactions") as JsonSpan[];
        expect(spans.map((span) => JSON.parse(textOf(body, span)))).toEqual(JSON.parse(text).transactions);
        spans.forEach((span, index) => {
          expect(span.members).toBe(membersOf(elements[index]));
          expect(body.toString("utf8", span.start, span.start + 1)).not.toMatch(/\s/);
        });
      }),
      { seed: 11, numRuns: 400 },
    );
  });

  it("reads the whole text as one value, whitespace around it left out", () => {
    fc.assert(
      fc.property(anyJson, indent, (value, space) => {
        const body = Buffer.from(`\r\n ${JSON.stringify(value, null, space)}\t `, "utf8");
        const span = wholeSpan(body);
        expect(JSON.parse(textOf(body, span))).toEqual(value);
        expect(span.members).toBe(membersOf(value));
        expect(body.length - span.end).toBe(2);
      }),
      { seed: 12, numRuns: 300 },
    );
  });

  it("counts a repeated key each time it appears", () => {
    const body = Buffer.from('{"a":1,"a":{"b":[{"c":1},{"c":2,"c":3}]}}');
    expect(wholeSpan(body).members).toBe(6);
  });

  it("takes the last of a repeated key, a key written with escapes, and nothing when it holds no array", () => {
    const elementsOf = (text: string) =>
      memberArrayElements(Buffer.from(text), "transactions")?.map((span) => textOf(Buffer.from(text), span));
    expect(elementsOf('{"transactions":[1],"transactions":[ 2 , "]" ]}')).toEqual(["2", '"]"']);
    expect(elementsOf('{"transactio\\u006es":[{"a":"\\"}"}]}')).toEqual(['{"a":"\\"}"}']);
    expect(elementsOf('{"transactions":[1],"transactions":5}')).toBeUndefined();
    expect(elementsOf('{"transactions":{"transactions":[1]}}')).toBeUndefined();
    expect(elementsOf('{"other":[1]}')).toBeUndefined();
    expect(elementsOf("[1]")).toBeUndefined();
    expect(elementsOf('{"transactions":[]}')).toEqual([]);
  });

  it("says which numbers would not read back as JSON.stringify writes them", () => {
    const plain = (number: string) => wholeSpan(Buffer.from(`{"n":[${number}]}`)).plainNumbers;
    for (const number of ["0", "-1", "1.50", "12345678901234567890", "0.1", "-10"]) {
      expect([number, plain(number)]).toEqual([number, true]);
    }
    // -0 is written as 0; an exponent or 400 digits may read as Infinity, written as null. The test is
    // coarse: every exponent and every number starting with -0 counts.
    for (const number of ["-0", "-0.0", "-0.5", "1e400", "-1E+400", "1e-400", "1e2", "9".repeat(400)]) {
      expect([number.slice(0, 12), plain(number)]).toEqual([number.slice(0, 12), false]);
    }
    // Digits inside strings are text.
    expect(wholeSpan(Buffer.from('{"n":"-0","m":"1e400"}')).plainNumbers).toBe(true);
  });
});
