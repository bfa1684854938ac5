import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../providers.ts";
import { compileAccept, REJECTED } from "./compiled-accept.ts";
import { parseQueueMessage, QueueMessageSchema } from "./queue-message.ts";
import { TransactionSchema } from "./transaction.ts";
import {
  AudioSecondsMetricsSchema,
  CustomMetricsSchema,
  ImagesMetricsSchema,
  RequestsMetricsSchema,
  TokensMetricsSchema,
  USAGE_TYPES,
  VideoSecondsMetricsSchema,
} from "./usage.ts";

const CONFIG = { abortEarly: false, abortPipeEarly: true } as const;
const accept = compileAccept(TransactionSchema);

/** Output as text that keeps key order and tells an absent key from one holding undefined. */
const exact = (value: unknown) => JSON.stringify(value, (_key, inner) => (inner === undefined ? "<undefined>" : inner));

/** The compiled schema must say what Valibot says: the same verdict, and when valid, the same output. */
const agreesWith =
  (schema: v.GenericSchema, compiledSchema: (input: unknown) => unknown) =>
  (input: unknown): void => {
    const compiled = compiledSchema(input);
    const valibot = v.safeParse(schema, input, CONFIG);
    expect(compiled === REJECTED ? "rejected" : "accepted").toBe(valibot.success ? "accepted" : "rejected");
    if (compiled !== REJECTED && valibot.success) {
      expect(compiled).toStrictEqual(valibot.output);
      expect(exact(compiled)).toBe(exact(valibot.output));
    }
  };
const agrees = agreesWith(TransactionSchema, accept);

const METRIC_NAMES = [
  ...new Set(
    [
      TokensMetricsSchema,
      ImagesMetricsSchema,
      AudioSecondsMetricsSchema,
      VideoSecondsMetricsSchema,
      RequestsMetricsSchema,
      CustomMetricsSchema,
    ].flatMap((schema) => Object.keys(schema.entries)),
  ),
];
/** Keys Valibot's objects treat specially, and keys every object inherits. */
const AWKWARD_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf"];

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("", "\ud800", "a\udc00b", "😀", "gpt-4o", "low", "hd", "web_search"),
);
const number = fc.oneof(
  fc.integer({ min: -3, max: 2_000 }),
  fc.double({ noNaN: false }),
  fc.constantFrom(0, -0, 0.5, 1e21, 2 ** 53, Number.MAX_SAFE_INTEGER, Number.NaN, Number.POSITIVE_INFINITY),
);
const anyValue = fc.oneof(
  text,
  number,
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
  fc.constant(undefined),
);
const key = (names: readonly string[]) =>
  fc.oneof(fc.constantFrom(...names, ...AWKWARD_KEYS), fc.string({ maxLength: 6 }));

/** An object of chosen keys (and others), built through JSON so that `__proto__` can be an own key. */
const objectOf = (names: readonly string[], value: fc.Arbitrary<unknown>) =>
  fc.array(fc.tuple(key(names), value), { maxLength: 8 }).map((pairs) => {
    const parts = pairs
      .filter(([, inner]) => inner !== undefined && !Number.isNaN(inner) && inner !== Infinity)
      .map(([name, inner]) => `${JSON.stringify(name)}:${JSON.stringify(inner)}`);
    const built = JSON.parse(`{${parts.join(",")}}`) as Record<string, unknown>;
    // Values JSON cannot carry, set afterwards as a direct caller could.
    for (const [name, inner] of pairs) if (inner === undefined || Number.isNaN(inner)) built[name] = inner;
    return built;
  });

/** Text around the identifier bound (256 bytes in UTF-8) in characters of 1 to 4 bytes. */
const nearBound = fc.string({ unit: fc.constantFrom("a", "é", "€", "😀", "\ud800"), minLength: 60, maxLength: 260 });
/** Contexts around the key bounds: 64 keys, names of 128 bytes. */
const manyKeys = fc
  .dictionary(
    fc.oneof(
      fc.string({ maxLength: 6 }),
      nearBound.map((name) => name.slice(0, 140)),
    ),
    fc.constant(1),
    {
      minKeys: 55,
      maxKeys: 70,
    },
  )
  .map((context) => ({ ...context, billable_customer_id: "c" }));

const metrics = fc.oneof(objectOf(METRIC_NAMES, fc.oneof(number, number, anyValue)), anyValue);
const usageEntry = fc.oneof(
  fc.record({ type: fc.constantFrom(...USAGE_TYPES), metrics }),
  fc.record({ type: fc.oneof(text, anyValue), metrics }, { requiredKeys: [] }),
  fc.record({ type: fc.constantFrom(...USAGE_TYPES), metrics, extra: anyValue }),
  anyValue,
);
const transaction = fc.record(
  {
    provider: fc.oneof(fc.constantFrom(...PROVIDERS), text, anyValue),
    model: fc.oneof(text, nearBound, anyValue),
    model_tier: fc.oneof(text, nearBound, anyValue),
    usage: fc.oneof(fc.array(usageEntry, { maxLength: 4 }), anyValue),
    context: fc.oneof(
      objectOf(["billable_customer_id", "feature"], fc.oneof(text, nearBound, anyValue)),
      manyKeys,
      anyValue,
    ),
    provider_usage_raw: anyValue,
    transaction_id: fc.oneof(text, fc.string({ minLength: 250, maxLength: 260 }), nearBound, anyValue),
    provider_cost: fc.oneof(
      fc.constantFrom("0.0001234567", "9000", "9000.000000000001", "-1", "1e-3", "0.1234567890123", 0.1, 1e-13, -2),
      fc.double(),
      text,
      anyValue,
    ),
    unknown_field: anyValue,
  },
  { requiredKeys: [] },
);
/** The least each usage type needs, so that generated entries are often valid. */
const MINIMAL_METRICS: Record<(typeof USAGE_TYPES)[number], Record<string, number>> = {
  tokens: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
  images: { generated: 1 },
  audio_seconds: { input_seconds: 1.5 },
  video_seconds: { processed_seconds: 2 },
  requests: { count: 1 },
  custom: { units: 0.25 },
};
/** Mostly valid transactions, so that both answers and the outputs are exercised. */
const nearlyValid = fc.record({
  provider: fc.constantFrom(...PROVIDERS),
  model: fc.constantFrom("gpt-4o", "claude", "😀"),
  usage: fc.uniqueArray(
    fc
      .record({
        type: fc.constantFrom(...USAGE_TYPES),
        metrics: objectOf(
          METRIC_NAMES,
          fc.oneof(fc.integer({ min: 0, max: 100 }), fc.constantFrom("low", "web_search")),
        ),
      })
      .map(({ type, metrics }) => ({ type, metrics: { ...MINIMAL_METRICS[type], ...metrics } })),
    { minLength: 1, maxLength: 3, selector: (entry) => entry.type },
  ),
  context: objectOf(["billable_customer_id"], fc.constantFrom("customer", "", "x")).map((context) => ({
    billable_customer_id: "customer-1",
    ...context,
  })),
});

describe("the compiled transaction schema", () => {
  it("accepts and rejects as Valibot does, with Valibot's output, over generated transactions", () => {
    fc.assert(
      fc.property(transaction, (input) => agrees(input)),
      { seed: 22, numRuns: 3_000 },
    );
  });

  it("agrees with Valibot on transactions that are mostly valid, and accepts most of them", () => {
    let accepted = 0;
    fc.assert(
      fc.property(nearlyValid, (input) => {
        agrees(input);
        if (accept(input) !== REJECTED) accepted++;
      }),
      { seed: 23, numRuns: 2_000 },
    );
    expect(accepted).toBeGreaterThan(200);
  });

  it("agrees on whole values of any kind", () => {
    fc.assert(
      fc.property(fc.anything(), (input) => agrees(input)),
      { seed: 24, numRuns: 1_000 },
    );
  });

  it("keeps what Valibot keeps: unknown keys dropped at the top, kept in context and metrics, but not those three", () => {
    const input = JSON.parse(
      '{"provider":"openai","model":"m","extra":1,"__proto__":{"x":1},"usage":[{"type":"tokens","metrics":{"input_tokens":1,"output_tokens":1,"total_tokens":2,"vendor":3,"constructor":4,"toString":5},"note":1}],"context":{"billable_customer_id":"c","team":"t","__proto__":{"y":2}}}',
    );
    agrees(input);
    expect(accept(input)).toEqual({
      provider: "openai",
      model: "m",
      usage: [
        { type: "tokens", metrics: { input_tokens: 1, output_tokens: 1, total_tokens: 2, vendor: 3, toString: 5 } },
      ],
      context: { billable_customer_id: "c", team: "t" },
    });
  });

  it("refuses, when it is built, a schema type it does not know rather than guess it", () => {
    expect(() => compileAccept(v.union([v.string(), v.number()]))).toThrow(/type "union" is not supported/);
    expect(() =>
      compileAccept(
        v.pipe(
          v.string(),
          v.transform((s) => s.length),
        ),
      ),
    ).toThrow(/transform/);
    expect(() => compileAccept(v.optional(v.string(), "x"))).toThrow(/default/);
    expect(() => compileAccept(QueueMessageSchema)).not.toThrow();
  });
});

describe("the compiled queue message schema", () => {
  const acceptMessage = compileAccept(QueueMessageSchema);
  const messageAgrees = agreesWith(QueueMessageSchema, acceptMessage);
  const envelope = (valid: boolean) =>
    fc.record(
      {
        schema_version: valid ? fc.constant(1) : fc.oneof(fc.constant(1), number, anyValue),
        organization_id: valid ? fc.constantFrom("org-1", "o") : fc.oneof(text, anyValue),
        request_id: valid ? fc.uuid() : fc.oneof(fc.uuid(), text, anyValue),
        transaction_index: valid ? fc.nat(1_000) : fc.oneof(fc.integer({ min: -2, max: 5 }), number, anyValue),
        received_at: valid
          ? fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString())
          : fc.oneof(fc.constantFrom("2026-11-23T02:00:00.000Z", "2026-11-23", "2026-13-40T25:00:00Z"), text, anyValue),
        transaction: valid ? nearlyValid : fc.oneof(nearlyValid, transaction, anyValue),
        extra: anyValue,
      },
      {
        requiredKeys: valid
          ? ["schema_version", "organization_id", "request_id", "transaction_index", "received_at", "transaction"]
          : [],
      },
    );

  it("accepts and rejects as Valibot does, with Valibot's output, over generated messages", () => {
    fc.assert(
      fc.property(envelope(false), (input) => messageAgrees(input)),
      { seed: 25, numRuns: 2_000 },
    );
  });

  it("agrees with Valibot on messages that are mostly valid, and accepts most of them", () => {
    let accepted = 0;
    fc.assert(
      fc.property(envelope(true), (input) => {
        messageAgrees(input);
        if (acceptMessage(input) !== REJECTED) accepted++;
      }),
      { seed: 26, numRuns: 1_000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it("gives the worker Valibot's output for a valid message and Valibot's issues for an invalid one", () => {
    const valid = {
      schema_version: 1,
      organization_id: "org-1",
      request_id: "0b7e8a2c-3f4d-4e5a-9b6c-7d8e9f0a1b2c",
      transaction_index: 2,
      received_at: "2026-11-23T02:00:00.000Z",
      transaction: {
        provider: "openai",
        model: "gpt-4o",
        usage: [{ type: "tokens", metrics: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } }],
        context: { billable_customer_id: "c" },
      },
      extra: true,
    };
    const parsed = parseQueueMessage(valid);
    expect(parsed).toEqual({ success: true, output: v.parse(QueueMessageSchema, valid) });
    const invalid = { ...valid, request_id: "not-a-uuid", transaction_index: -1 };
    const refused = parseQueueMessage(invalid);
    const valibot = v.safeParse(QueueMessageSchema, invalid, { abortEarly: false });
    expect(refused.success).toBe(false);
    expect(refused.success ? [] : refused.issues.map((issue) => issue.message)).toEqual(
      valibot.issues?.map((issue) => issue.message),
    );
    expect(valibot.issues?.length).toBe(2);
  });
});
