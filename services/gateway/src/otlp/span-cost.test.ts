import { describe, expect, it } from "vitest";
import type { AttributeValue } from "./decode.ts";
import { chat, span } from "./span-test-support.ts";
import { spanToTransaction } from "./span-to-transaction.ts";

/** The vendor's own cost a span carries, read as the call's provider_cost (decision 0031). */
const usage = { "gen_ai.usage.input_tokens": 1000, "gen_ai.usage.output_tokens": 500 };
const transactionOf = (more: Record<string, AttributeValue>) => {
  const verdict = spanToTransaction(chat("openai", usage, more));
  if (verdict.kind !== "transaction") throw new Error(`expected a transaction, got ${JSON.stringify(verdict)}`);
  return verdict.transaction;
};

describe("the cost attributes of a span", () => {
  it("reads gen_ai.usage.cost.amount in USD, twelve places, the double rounded half up", () => {
    expect(
      transactionOf({ "gen_ai.usage.cost.amount": 0.0075123, "gen_ai.usage.cost.currency": "USD" }).provider_cost,
    ).toBe("0.007512300000");
    // A double's noise past twelve places is rounded away, never refused: the call is billed all the same.
    expect(
      transactionOf({ "gen_ai.usage.cost.amount": 0.1 + 0.2, "gen_ai.usage.cost.currency": "usd" }).provider_cost,
    ).toBe("0.300000000000");
  });

  it("keeps no amount in another currency, or without one, and bills the call with its attributes kept raw", () => {
    const currencies: Array<Record<string, AttributeValue>> = [{ "gen_ai.usage.cost.currency": "EUR" }, {}];
    for (const currency of currencies) {
      const transaction = transactionOf({ "gen_ai.usage.cost.amount": 0.004, ...currency });
      expect(transaction).not.toHaveProperty("provider_cost");
      expect(transaction.provider_usage_raw).toMatchObject({ "gen_ai.usage.cost.amount": 0.004, ...currency });
    }
  });

  it("reads OpenInference's llm.cost.total as USD, after the GenAI amount", () => {
    const openinference = spanToTransaction(
      span({
        "openinference.span.kind": "LLM",
        "llm.provider": "openai",
        "llm.model_name": "gpt-4o",
        "llm.token_count.prompt": 1000,
        "llm.token_count.completion": 500,
        "llm.cost.total": 0.0075,
      }),
    );
    expect(openinference.kind === "transaction" && openinference.transaction).toMatchObject({
      provider_cost: "0.007500000000",
      provider_usage_raw: expect.objectContaining({ "llm.cost.total": 0.0075 }),
    });
    expect(
      transactionOf({
        "gen_ai.usage.cost.amount": 0.002,
        "gen_ai.usage.cost.currency": "USD",
        "llm.cost.total": 0.0075,
      }).provider_cost,
    ).toBe("0.002000000000");
  });

  it("gives none for an amount that is no cost we keep", () => {
    for (const amount of [-0.01, 9001, "a lot"]) {
      expect(transactionOf({ "llm.cost.total": amount })).not.toHaveProperty("provider_cost");
    }
    expect(transactionOf({})).not.toHaveProperty("provider_cost");
  });
});
