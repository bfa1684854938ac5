import {
  createClient,
  fromAnthropic,
  fromAnthropicStream,
  fromBedrock,
  fromDeepSeek,
  fromGemini,
  fromOpenAI,
  fromXai,
  type VendorUsage,
} from "@usage-ingestion/client";
import { setCustomPricing } from "@usage-ingestion/prices";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import anthropicBatchLine from "../../clients/typescript/test/fixtures/anthropic/batch-result-line.json" with {
  type: "json",
};
import anthropicMessage from "../../clients/typescript/test/fixtures/anthropic/message.json" with { type: "json" };
import anthropicStream from "../../clients/typescript/test/fixtures/anthropic/stream-events.json" with { type: "json" };
import anthropicSearch from "../../clients/typescript/test/fixtures/anthropic/web-search-usage.json" with {
  type: "json",
};
import converse from "../../clients/typescript/test/fixtures/bedrock/converse.json" with { type: "json" };
import deepseekReasoner from "../../clients/typescript/test/fixtures/deepseek/reasoner-cache-usage.json" with {
  type: "json",
};
import geminiThinking from "../../clients/typescript/test/fixtures/gemini/generate-content-thinking.json" with {
  type: "json",
};
import geminiGrounding from "../../clients/typescript/test/fixtures/gemini/grounding.json" with { type: "json" };
import openaiBatchLine from "../../clients/typescript/test/fixtures/openai/batch-output-line.json" with {
  type: "json",
};
import openaiChunk from "../../clients/typescript/test/fixtures/openai/chat-stream-usage-chunk.json" with {
  type: "json",
};
import xaiReasoning from "../../clients/typescript/test/fixtures/xai/chat-completion-reasoning.json" with {
  type: "json",
};
import xaiTools from "../../clients/typescript/test/fixtures/xai/responses-server-tools.json" with { type: "json" };
import { priceQueued } from "../setup/client.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { firestore, pullableTopic, seedOrganization } from "../setup/harness.ts";

/**
 * Each vendor's documented response, through its adapter, the client, the gateway, Pub/Sub and the
 * worker, to the cost stored in Firestore. Expected costs are worked out by hand from the vendors'
 * price pages (USD per million tokens, read 2026-11-22):
 * - OpenAI gpt-4o-mini: input 0.15, cached input 0.075, output 0.60 (https://platform.openai.com/docs/pricing)
 * - Anthropic Claude Haiku 3.5: input 0.80, 5-minute cache write 1.00, cache hit 0.08, output 4.00; web
 *   search 10 USD per 1 000 searches (https://docs.anthropic.com/en/docs/about-claude/pricing)
 * - Gemini 2.0 Flash: input 0.10 (text), output 0.40, thinking billed as output; grounding with Google
 *   Search 35 USD per 1 000 grounded prompts (https://ai.google.dev/gemini-api/docs/pricing)
 * - Bedrock Claude 3.5 Haiku on demand: input 0.0008, cache write 0.001, cache read 0.00008, output 0.004
 *   per 1 000 tokens (https://aws.amazon.com/bedrock/pricing/)
 * - xAI grok-4-1-fast-reasoning: input 0.20, cached input 0.05, output 0.50; X search 5 USD per 1 000 calls
 *   (https://docs.x.ai/docs/models)
 * - DeepSeek deepseek-reasoner (V3.2): cache miss 0.28, cache hit 0.028, output 0.42
 *   (https://api-docs.deepseek.com/quick_start/pricing). Set as the organization's own price: the pinned
 *   catalog still carries the earlier prices and the night-time discount DeepSeek ended on 2025-09-05.
 * - Tiers the response reports (`model_tier`): OpenAI Priority processing for gpt-4o-mini: input 0.25,
 *   cached input 0.125, output 1.00 (https://openai.com/api-priority-processing/); Batch API 50% of every
 *   token price at OpenAI, Anthropic and Gemini (https://platform.openai.com/docs/guides/batch,
 *   https://docs.anthropic.com/en/docs/build-with-claude/batch-processing, https://ai.google.dev/gemini-api/docs/batch-api).
 */
const cases: Array<{ name: string; usage: VendorUsage; cost_usd: string; cost_nanos: number }> = [
  {
    // (2006 - 1920) x 0.15 + 1920 x 0.075 + 300 x 0.60 = 12 900 + 144 000 + 180 000 nano-USD
    name: "OpenAI stream usage chunk, cached tokens inside the prompt",
    usage: fromOpenAI(openaiChunk),
    cost_usd: "0.000336900",
    cost_nanos: 336_900,
  },
  {
    // (2006 - 1920) x 0.25 + 1920 x 0.125 + 300 x 1.00 = 21 500 + 240 000 + 300 000
    name: "OpenAI served at Fast mode (Priority processing), priced at its priority row",
    // The same response ids as the cases above: ids of their own, or the service bills them as repeats.
    usage: { ...fromOpenAI({ ...openaiChunk, service_tier: "fast" }), transaction_id: "tier-openai-fast" },
    cost_usd: "0.000561500",
    cost_nanos: 561_500,
  },
  {
    // (22 x 0.15 + 2 x 0.60) x 0.5 = (3 300 + 1 200) x 0.5
    name: "OpenAI Batch API output line, at batch rates",
    usage: { ...fromOpenAI(openaiBatchLine), model: "gpt-4o-mini", transaction_id: "tier-openai-batch" },
    cost_usd: "0.000002250",
    cost_nanos: 2_250,
  },
  {
    // (10 x 0.80 + 34 x 4.00) x 0.5 = (8 000 + 136 000) x 0.5
    name: "Anthropic Message Batches result, at batch rates",
    usage: { ...fromAnthropic(anthropicBatchLine), model: "claude-3-5-haiku-20241022" },
    cost_usd: "0.000072000",
    cost_nanos: 72_000,
  },
  {
    // (34 x 0.10 + (418 + 438) x 0.40) x 0.5 = (3 400 + 342 400) x 0.5
    name: "Gemini Batch API response line, at batch rates",
    usage: {
      ...fromGemini({ key: "request-1", response: geminiThinking }),
      model: "gemini-2.0-flash",
      transaction_id: "tier-gemini-batch",
    },
    cost_usd: "0.000172900",
    cost_nanos: 172_900,
  },
  {
    // 2095 x 0.80 + 2051 x 1.00 + 2051 x 0.08 + 503 x 4.00 = 1 676 000 + 2 051 000 + 164 080 + 2 012 000
    name: "Anthropic message, cache reads and writes apart from input",
    usage: { ...fromAnthropic(anthropicMessage), model: "claude-3-5-haiku-20241022" },
    cost_usd: "0.005903080",
    cost_nanos: 5_903_080,
  },
  {
    // 25 x 0.80 + 15 x 4.00 = 20 000 + 60 000
    name: "Anthropic stream, message_start and message_delta merged",
    usage: { ...fromAnthropicStream(anthropicStream), model: "claude-3-5-haiku-20241022" },
    cost_usd: "0.000080000",
    cost_nanos: 80_000,
  },
  {
    // 105 x 0.80 + 7123 x 0.08 + 7345 x 1.00 + 6039 x 4.00 + 1 search x 0.01 USD
    // = 84 000 + 569 840 + 7 345 000 + 24 156 000 + 10 000 000
    name: "Anthropic web search, the search billed per request",
    usage: {
      ...fromAnthropic({ id: "msg_search", model: "x", ...anthropicSearch }),
      model: "claude-3-5-haiku-20241022",
    },
    cost_usd: "0.042154840",
    cost_nanos: 42_154_840,
  },
  {
    // 34 x 0.10 + (418 + 438 thoughts) x 0.40 = 3 400 + 342 400
    name: "Gemini response, thoughts added to the output",
    usage: { ...fromGemini(geminiThinking), model: "gemini-2.0-flash" },
    cost_usd: "0.000345800",
    cost_nanos: 345_800,
  },
  {
    // (12 + 210 tool-use prompt) x 0.10 + 16 x 0.40 + 1 grounded prompt x 0.035 USD = 22 200 + 6 400 + 35 000 000
    name: "Gemini grounded answer, tool-use prompt tokens as input",
    usage: { ...fromGemini(geminiGrounding), model: "gemini-2.0-flash" },
    cost_usd: "0.035028600",
    cost_nanos: 35_028_600,
  },
  {
    // 1200 x 0.80 + 3000 x 0.08 + 1000 x 1.00 + 350 x 4.00 = 960 000 + 240 000 + 1 000 000 + 1 400 000
    name: "Bedrock Converse, cache reads and writes apart from input",
    usage: fromBedrock(converse, { modelId: "anthropic.claude-3-5-haiku-20241022-v1:0" }),
    cost_usd: "0.003600000",
    cost_nanos: 3_600_000,
  },
  {
    // (26 - 4) x 0.20 + 4 x 0.05 + (168 + 304 reasoning) x 0.50 = 4 400 + 200 + 236 000
    name: "xAI chat completion, reasoning added to the completion",
    usage: fromXai(xaiReasoning),
    cost_usd: "0.000240600",
    cost_nanos: 240_600,
  },
  {
    // (14750 - 8064) x 0.20 + 8064 x 0.05 + 3436 x 0.50 + 8 X searches x 0.005 USD
    // = 1 337 200 + 403 200 + 1 718 000 + 40 000 000
    name: "xAI server-side X searches, billed per call",
    usage: { ...fromXai(xaiTools), model: "grok-4-1-fast-reasoning" },
    cost_usd: "0.043458400",
    cost_nanos: 43_458_400,
  },
  {
    // 1405 misses x 0.28 + 256 hits x 0.028 + 862 x 0.42 (reasoning inside) = 393 400 + 7 168 + 362 040
    name: "DeepSeek reasoner, cache hits inside the prompt, reasoning inside the completion",
    usage: fromDeepSeek(deepseekReasoner),
    cost_usd: "0.000762608",
    cost_nanos: 762_608,
  },
];

describe("adapter -> client -> gateway -> worker -> Firestore", () => {
  let org: Awaited<ReturnType<typeof seedOrganization>>;
  let topic: Awaited<ReturnType<typeof pullableTopic>>;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;

  beforeAll(async () => {
    org = await seedOrganization();
    await setCustomPricing(
      firestore(),
      org.organizationId,
      JSON.stringify({
        prices: [
          {
            provider: "deepseek",
            model: "deepseek-reasoner",
            input_mtok: "0.28",
            cache_read_mtok: "0.028",
            output_mtok: "0.42",
          },
        ],
      }),
    );
    topic = await pullableTopic();
    gateway = await startTestGateway({ topicName: topic.topicName });
  });
  afterAll(() => gateway.close());

  it("stores the exact cost of each vendor's documented response", async () => {
    const client = createClient({ baseUrl: gateway.baseUrl, apiKey: org.apiKey });
    const ids = cases.map(({ usage }, i) => client.track({ ...usage, context: { billable_customer_id: `c${i}` } }));
    const result = await client.close();
    expect(result.failed).toEqual([]);

    const records = await priceQueued(topic, org.organizationId, cases.length);
    const messageOf = new Map(result.delivered.map((d) => [d.transaction_id, d.message_id]));
    const stored = cases.map((_, i) => records.get(messageOf.get(ids[i] as string) as string));
    expect(stored.map((record) => [record?.status, record?.cost_usd, record?.cost_nanos])).toEqual(
      cases.map((c) => ["priced", c.cost_usd, c.cost_nanos]),
    );
    stored.forEach((record, i) => {
      const { usage } = cases[i] as (typeof cases)[number];
      expect(record).toMatchObject({
        provider: usage.provider,
        model: usage.model,
        model_tier: usage.model_tier ?? null,
        usage: usage.usage,
        context: { billable_customer_id: `c${i}` },
        provider_usage_raw: usage.provider_usage_raw,
      });
    });
  });
});
