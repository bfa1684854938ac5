import { describe, expect, it } from "vitest";
import { nanos, price, tokens, tx } from "./price-test-support.ts";

/**
 * A long-context threshold follows the model page's words even where the catalog's tier starts elsewhere
 * (decisions: "Model ids"). https://developers.openai.com/api/docs/models/gpt-5.4 and .../gpt-5.4-pro (read
 * 2026-11-26): "prompts with >272K input tokens are priced at 2x input and 1.5x output for the full session";
 * the pinned catalog starts that tier at 271,999. Checked without restating a rate: up to the threshold a
 * prompt's last token costs one standard token; the next one reprices the whole call.
 */
const AT = new Date("2026-11-26T12:00:00Z");
const cost = (model: string, inputTokens: number, tier?: string) =>
  nanos(
    price(
      tx({
        provider: "openai",
        model,
        ...(tier ? { model_tier: tier } : {}),
        usage: [tokens({ input_tokens: inputTokens, output_tokens: 1 })],
      }),
      AT,
    ),
  );

describe("OpenAI long-context threshold as the model page words it", () => {
  it.each([
    ["gpt-5.4", undefined],
    ["gpt-5.4-pro", undefined],
    ["gpt-5.4-pro", "batch"],
    ["gpt-5.4", "flex"],
  ])("%s (tier %s): 272,000 input tokens are standard, 272,001 are long", (model, tier) => {
    const oneToken = cost(model, 100_001, tier) - cost(model, 100_000, tier);
    // The 272,000th token is one more standard token; the 272,001st reprices the whole call.
    expect(cost(model, 272_000, tier) - cost(model, 271_999, tier)).toBe(oneToken);
    expect(cost(model, 272_001, tier) - cost(model, 272_000, tier)).toBeGreaterThan(oneToken * 200_000n);
  });
});
