import { describe, expectTypeOf, it } from "vitest";
import { fromAnthropic } from "../src/adapters/anthropic.ts";
import { fromOpenAI } from "../src/adapters/openai.ts";
import type { UsageClient } from "../src/client.ts";
import type { VendorUsage } from "../src/types.ts";
import message from "./fixtures/anthropic/message.json" with { type: "json" };
import chat from "./fixtures/openai/chat-completion.json" with { type: "json" };

// Checked by the type-check of `npm test`: a wrong type here fails the run.
describe("the types a caller meets", () => {
  type Tracked = Parameters<UsageClient["track"]>[0];

  it("takes an adapter's result once the caller adds the context", () => {
    expectTypeOf({ ...fromOpenAI(chat), context: { billable_customer_id: "c1", team: "search" } }).toExtend<Tracked>();
    expectTypeOf(fromOpenAI(chat)).not.toExtend<Tracked>();
    expectTypeOf({ ...fromAnthropic(message), context: { team: "search" } }).not.toExtend<Tracked>();
  });

  it("names the provider among the service's providers", () => {
    expectTypeOf<VendorUsage["provider"]>().toEqualTypeOf<
      "openai" | "gemini" | "bedrock" | "anthropic" | "xai" | "deepseek" | "custom"
    >();
  });
});
