import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { encodeCommitRequest, formatFieldPath } from "./commit-wire.ts";

// The Firestore client's own descriptors of its API (the package ships them), read here only.
const require = createRequire(import.meta.url);
const protos = join(dirname(require.resolve("@google-cloud/firestore")), "..", "protos", "v1.json");
const CommitRequest = protobuf.Root.fromJSON(JSON.parse(readFileSync(protos, "utf8"))).lookupType(
  "google.firestore.v1.CommitRequest",
);
const decode = (frame: Buffer) =>
  CommitRequest.toObject(CommitRequest.decode(frame), { longs: String, enums: String, oneofs: false, defaults: false });

const DATABASE = "projects/p/databases/(default)";
const name = (path: string) => `${DATABASE}/documents/${path}`;

describe("a Firestore commit request in protobuf's wire format", () => {
  it("writes every kind of value as the Firestore client does", () => {
    const fields = {
      text: "naïve ☃ 😀",
      empty: "",
      yes: true,
      no: false,
      zero: 0,
      count: 1_200,
      negative: -5,
      largest: Number.MAX_SAFE_INTEGER,
      unsafe: 2 ** 60,
      fraction: 0.25,
      negativeZero: -0,
      nothing: null,
      list: [1, "two", null, { three: 3 }],
      emptyList: [],
      map: { inner: { deeper: "x" }, "key with spaces": 1 },
      emptyMap: {},
    };
    const request = decode(encodeCommitRequest(DATABASE, [{ kind: "create", path: "c/doc", fields }]));

    expect(request).toEqual({
      database: DATABASE,
      writes: [
        {
          update: {
            name: name("c/doc"),
            fields: {
              text: { stringValue: "naïve ☃ 😀" },
              empty: { stringValue: "" },
              yes: { booleanValue: true },
              no: { booleanValue: false },
              zero: { integerValue: "0" },
              count: { integerValue: "1200" },
              negative: { integerValue: "-5" },
              largest: { integerValue: "9007199254740991" },
              unsafe: { doubleValue: 2 ** 60 },
              fraction: { doubleValue: 0.25 },
              negativeZero: { doubleValue: -0 },
              nothing: { nullValue: "NULL_VALUE" },
              list: {
                arrayValue: {
                  values: [
                    { integerValue: "1" },
                    { stringValue: "two" },
                    { nullValue: "NULL_VALUE" },
                    { mapValue: { fields: { three: { integerValue: "3" } } } },
                  ],
                },
              },
              emptyList: { arrayValue: {} },
              map: {
                mapValue: {
                  fields: {
                    inner: { mapValue: { fields: { deeper: { stringValue: "x" } } } },
                    "key with spaces": { integerValue: "1" },
                  },
                },
              },
              emptyMap: { mapValue: {} },
            },
          },
          currentDocument: { exists: false },
        },
      ],
    });
    expect(Object.is(request.writes[0].update.fields.negativeZero.doubleValue, -0)).toBe(true);
  });

  it("merges the leaves of a cell's key with increments, and increments a cell that must exist", () => {
    const request = decode(
      encodeCommitRequest(DATABASE, [
        {
          kind: "merge",
          path: "o/cell",
          fields: { day: "2026-11-23", dimensions: { "team.name": "a", "a`b\\c": null, plain: "p" }, empty: {} },
          increments: [
            [["transactions"], 1],
            [["quantities", "input_tokens"], 0],
          ],
        },
        { kind: "increment", path: "o/other", increments: [[["cost_nanos"], -250]] },
      ]),
    );

    expect(request.writes).toEqual([
      {
        update: {
          name: name("o/cell"),
          fields: {
            day: { stringValue: "2026-11-23" },
            dimensions: {
              mapValue: {
                fields: {
                  "team.name": { stringValue: "a" },
                  "a`b\\c": { nullValue: "NULL_VALUE" },
                  plain: { stringValue: "p" },
                },
              },
            },
            empty: { mapValue: {} },
          },
        },
        updateMask: {
          fieldPaths: ["day", "dimensions.`team.name`", "dimensions.`a\\`b\\\\c`", "dimensions.plain", "empty"],
        },
        updateTransforms: [
          { fieldPath: "transactions", increment: { integerValue: "1" } },
          { fieldPath: "quantities.input_tokens", increment: { integerValue: "0" } },
        ],
      },
      {
        // An empty mask: nothing is set but the counters (without one, the document would be replaced).
        update: { name: name("o/other") },
        updateMask: {},
        updateTransforms: [{ fieldPath: "cost_nanos", increment: { integerValue: "-250" } }],
        currentDocument: { exists: true },
      },
    ]);
  });

  it("leaves room for the frame header, and refuses what JSON cannot hold", () => {
    const body = encodeCommitRequest(DATABASE, [{ kind: "create", path: "c/d", fields: { a: 1 } }]);
    const framed = encodeCommitRequest(DATABASE, [{ kind: "create", path: "c/d", fields: { a: 1 } }], 5);
    expect(framed.subarray(5)).toEqual(body);
    expect(() =>
      encodeCommitRequest(DATABASE, [{ kind: "create", path: "c/d", fields: { a: { b: undefined } } }]),
    ).toThrow('cannot store undefined in field "a.b"');
    expect(() =>
      encodeCommitRequest(DATABASE, [{ kind: "create", path: "c/d", fields: { when: new Date() } }]),
    ).toThrow(/cannot store object/);
  });

  it("quotes the field path segments that are not plain names, as the Firestore client does", () => {
    expect(formatFieldPath(["quantities", "input_tokens"])).toBe("quantities.input_tokens");
    expect(formatFieldPath(["_a1", "1a", "a-b", ""])).toBe("_a1.`1a`.`a-b`.``");
    expect(formatFieldPath(["a`b", "c\\d"])).toBe("`a\\`b`.`c\\\\d`");
  });
});
