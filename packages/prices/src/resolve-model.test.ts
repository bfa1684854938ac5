import { formatDecimal, type Provider } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { isTiered } from "./rate-types.ts";
import { vendorTokenRates } from "./read-vendor-rates.ts";

/**
 * Model ids exactly as the vendors' APIs, SDKs and consoles return them, and the model and standard input
 * price (USD per million tokens, from the vendor's page; see table/ for each page) they resolve to, as of
 * 2026-06-01.
 */
const AT = new Date("2026-06-01T12:00:00Z");
const IDS: Array<[Provider, string, string, string]> = [
  ["openai", "gpt-4o-2024-08-06", "gpt-4o", "2.5"],
  ["openai", "GPT-4o", "gpt-4o", "2.5"],
  ["openai", "o4-mini-2025-04-16", "o4-mini", "1.1"],
  ["openai", "gpt-4o-mini-tts-2025-12-15", "gpt-4o-mini-tts", "0.6"],
  ["openai", "gpt-realtime-2025-08-28", "gpt-realtime", "4"],
  ["anthropic", "claude-sonnet-4-5@20250929", "claude-sonnet-4-5", "3"],
  ["anthropic", "claude-sonnet-4-5[1m]", "claude-sonnet-4-5", "3"],
  ["anthropic", "claude-3-5-haiku-latest", "claude-3-5-haiku-latest", "0.8"],
  ["anthropic", "claude-opus-4-1-20250805", "claude-opus-4-1", "15"],
  ["gemini", "models/gemini-2.5-pro", "gemini-2.5-pro", "1.25"],
  ["gemini", "gemini-2.0-flash-001", "gemini-2.0-flash", "0.1"],
  ["gemini", "gemini-2.5-flash-lite-preview-09-2025", "gemini-2.5-flash-lite", "0.1"],
  ["xai", "grok-4.20-0309-reasoning", "grok-4.20", "1.25"],
  ["xai", "grok-4.20-0309-non-reasoning", "grok-4.20", "1.25"],
  ["xai", "grok-4.20-multi-agent-0309", "grok-4.20-multi-agent", "1.25"],
  ["xai", "grok-4-latest", "grok-4-0709", "3"],
  ["xai", "grok-4.3-latest", "grok-4.3", "1.25"],
  ["bedrock", "us.anthropic.claude-sonnet-4-20250514-v1:0", "regional.anthropic.claude-sonnet-4-20250514-v1:0", "3"],
  [
    "bedrock",
    "global.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "global.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "3",
  ],
  [
    "bedrock",
    "arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-sonnet-4-5-20250929-v1:0",
    "regional.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "3.3",
  ],
  ["bedrock", "us.amazon.nova-micro-v1:0", "amazon.nova-micro-v1:0", "0.035"],
  ["deepseek", "deepseek-chat", "deepseek-chat", "0.14"],
];

describe("model ids as the vendors return them", () => {
  it.each(IDS)("%s %s", (provider, id, model, input) => {
    const result = vendorTokenRates(provider as Exclude<Provider, "custom">, id, AT);
    if (!result.ok) throw new Error(result.reason);
    expect(result.value.modelId).toBe(model);
    const rate = result.value.tokens.input_mtok;
    if (!rate) throw new Error("no input rate");
    expect(formatDecimal(isTiered(rate) ? rate.base.price : rate.price)).toBe(input);
  });

  it.each<[Provider, string, RegExp]>([
    [
      "bedrock",
      "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc123",
      /application inference profile/,
    ],
    ["gemini", "gemini-flash-latest", /^alias_unresolved: /],
    ["openai", "gpt-4o-realtime-preview-2024-10-01", /2024-10-01 snapshots had their own audio prices/],
  ])("leaves %s %s unpriced, saying why", (provider, id, reason) => {
    const result = vendorTokenRates(provider as Exclude<Provider, "custom">, id, AT);
    expect(result.ok ? "priced" : result.reason).toMatch(reason);
  });
});
