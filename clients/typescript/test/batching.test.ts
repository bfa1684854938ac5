import { describe, expect, it } from "vitest";
import { backoffDelay } from "../src/backoff.ts";
import { batchesOf, jsonBytes } from "../src/batches.ts";
import { randomId } from "../src/ids.ts";
import type { TrackedTransaction } from "../src/types.ts";

const queued = (transactions: TrackedTransaction[]) =>
  transactions.map((transaction) => ({ transaction, bytes: jsonBytes(transaction) }));
const transaction = (id: number, padding = ""): TrackedTransaction => ({
  provider: "openai",
  model: "gpt-4o-mini",
  usage: [{ type: "tokens", metrics: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } }],
  context: { billable_customer_id: `c${id}`, padding },
  transaction_id: `t${id}`,
});

describe("batchesOf", () => {
  it("cuts at the count bound", () => {
    const all = queued(Array.from({ length: 2500 }, (_, i) => transaction(i)));
    const batches = batchesOf(all, 1000, 5 * 1024 * 1024);
    expect(batches.map((b) => b.length)).toEqual([1000, 1000, 500]);
    expect(batches.flat().map((t) => t.transaction_id)).toEqual(Array.from({ length: 2500 }, (_, i) => `t${i}`));
  });

  it("cuts at the byte bound, counting UTF-8 bytes", () => {
    const big = "é".repeat(100_000); // 200 000 bytes of JSON, 100 000 characters
    const batches = batchesOf(queued([transaction(1, big), transaction(2, big), transaction(3, big)]), 1000, 450_000);
    expect(batches.map((b) => b.map((t) => t.transaction_id))).toEqual([["t1", "t2"], ["t3"]]);
  });

  it("sends a transaction larger than the bound alone, for the service to judge", () => {
    const batches = batchesOf(queued([transaction(1), transaction(2, "x".repeat(1000)), transaction(3)]), 1000, 600);
    expect(batches.map((b) => b.length)).toEqual([1, 1, 1]);
  });
});

describe("backoffDelay", () => {
  const options = { baseDelayMs: 100, maxDelayMs: 1000 };

  it("doubles its ceiling per retry, between half the ceiling and the ceiling", () => {
    expect([1, 2, 3, 4].map((attempt) => backoffDelay(attempt, { ...options, random: () => 0 }))).toEqual([
      50, 100, 200, 400,
    ]);
    expect([1, 2, 3, 4].map((attempt) => backoffDelay(attempt, { ...options, random: () => 0.999999 }))).toEqual([
      100, 200, 400, 800,
    ]);
  });

  it("never waits longer than the maximum", () => {
    expect(backoffDelay(30, { ...options, random: () => 0.999999 })).toBe(1000);
  });
});

describe("randomId", () => {
  const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it("is a version 4 UUID, also where the runtime lacks crypto.randomUUID", () => {
    expect(randomId()).toMatch(v4);
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, "randomUUID", { value: undefined, configurable: true });
    try {
      const ids = Array.from({ length: 100 }, () => randomId());
      for (const id of ids) expect(id).toMatch(v4);
      expect(new Set(ids).size).toBe(100);
    } finally {
      Object.defineProperty(crypto, "randomUUID", { value: original, configurable: true });
    }
  });
});
