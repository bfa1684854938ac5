import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../providers.ts";
import { compileAccept, REJECTED } from "./compiled-accept.ts";
import { QueueMessageSchema } from "./queue-message.ts";
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
function agrees(input: unknown): void {
  const compiled = accept(input);
  const valibot = v.safeParse(TransactionSchema, input, CONFIG);
  expect(compiled === REJECTED ? "rejected" : "accepted").toBe(valibot.success ? "accepted" : "rejected");
  if (compiled !== REJECTED && valibot.success) {
    expect(compiled).toStrictEqual(valibot.output);
    expect(exact(compiled)).toBe(exact(valibot.output));
  }
}

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
    model: fc.oneof(text, anyValue),
    model_tier: fc.oneof(text, anyValue),
    usage: fc.oneof(fc.array(usageEntry, { maxLength: 4 }), anyValue),
    context: fc.oneof(objectOf(["billable_customer_id", "feature"], fc.oneof(text, anyValue)), anyValue),
    provider_usage_raw: anyValue,
    transaction_id: fc.oneof(text, fc.string({ minLength: 250, maxLength: 260 }), anyValue),
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
