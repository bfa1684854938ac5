import { describe, expect, it } from "vitest";
import { nanos, price, tokens, tx } from "./price-test-support.ts";

const call = (provider: string, model: string) =>
  tx({ provider, model, usage: [tokens({ input_tokens: 1_000_000, output_tokens: 100_000 })] });

describe("moving aliases are priced as the model they named when the call was received", () => {
  it.each([
    ["gemini", "gemini-pro-latest", "2026-11-01T12:00:00Z"],
    ["gemini", "gemini-pro-latest", "2024-06-01T12:00:00Z"],
    ["gemini", "models/gemini-flash-latest", "2026-11-01T12:00:00Z"],
    ["gemini", "Gemini-Flash-Lite-Latest", "2026-11-01T12:00:00Z"],
    ["openai", "chatgpt-4o-latest", "2025-06-01T12:00:00Z"],
    ["xai", "grok-2-latest", "2024-12-16T23:59:59Z"],
  ])("%s %s at %s, which no dated change resolves, is alias_unresolved", (provider, model, at) => {
    const result = price(call(provider, model), new Date(at));
    expect(result.status).toBe("unpriced");
    if (result.status === "unpriced") expect(result.unpriced_reason).toMatch(/^alias_unresolved: .*moving alias/);
  });

  it("prices grok-2-latest as grok-2-1212 once xAI's page says it names it", () => {
    // https://docs.x.ai/docs/models (archive.fo/MgzHf, copy of 2024-12-17): "The grok-2 and grok-2-latest model
    // names are aliased to the latest chat models, currently grok-2-1212"; grok-2-1212 "Text input $2.00 ...
    // Completion $10.00" per million tokens. 1,000,000 x 2,000 + 100,000 x 10,000 nanos = 3,000,000,000.
    expect(nanos(price(call("xai", "grok-2-latest"), new Date("2025-01-10T12:00:00Z")))).toBe(3_000_000_000n);
  });

  it("keeps a -latest id of one model (a snapshot alias, not a moving one) priced as that model", () => {
    const result = price(call("anthropic", "claude-3-5-haiku-latest"), new Date("2025-03-01T12:00:00Z"));
    expect(result.status).toBe("priced");
  });
});
