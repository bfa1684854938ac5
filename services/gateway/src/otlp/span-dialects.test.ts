import { describe, expect, it } from "vitest";
import type { AttributeValue } from "./decode.ts";
import { inRange } from "./dialects.ts";
import { chat, metricsOf, span } from "./span-test-support.ts";
import { spanToTransaction } from "./span-to-transaction.ts";

describe("dialects: what each attribute holds, by the scope that wrote it", () => {
  /** One Anthropic message: 300 uncached input, 8,000 cache-read, 1,200 cache-write and 500 output tokens. */
  const anthropic = { input: 300, read: 8000, write: 1200, output: 500 };
  const billed = {
    input_tokens: 300,
    output_tokens: 500,
    total_tokens: 10_000,
    cache_read_input_tokens: 8000,
    cache_creation_input_tokens: 1200,
  };
  const fromScope = (name: string, version: string, input: number) => ({
    ...chat("anthropic", {
      "gen_ai.usage.input_tokens": input,
      "gen_ai.usage.output_tokens": anthropic.output,
      "gen_ai.usage.cache_read_input_tokens": anthropic.read,
      "gen_ai.usage.cache_creation_input_tokens": anthropic.write,
    }),
    scope: { name, version },
  });

  it("OpenLLMetry's JavaScript Anthropic instrumentation up to 0.27.0 writes Anthropic's own input", () => {
    for (const version of ["0.23.0", "0.27.0"]) {
      expect(metricsOf(spanToTransaction(fromScope("@traceloop/instrumentation-anthropic", version, 300)))).toEqual(
        billed,
      );
    }
  });

  it("its later releases, and OpenLLMetry's Python one, write the conventions' inclusive input", () => {
    expect(metricsOf(spanToTransaction(fromScope("@traceloop/instrumentation-anthropic", "0.28.0", 9500)))).toEqual(
      billed,
    );
    expect(metricsOf(spanToTransaction(fromScope("opentelemetry.instrumentation.anthropic", "0.62.1", 9500)))).toEqual(
      billed,
    );
  });

  it("never keys on the attribute alone: the same 300 from another scope is refused, the attribute named", () => {
    for (const scope of [
      ["opentelemetry.instrumentation.anthropic", "0.62.1"],
      ["@traceloop/instrumentation-anthropic", ""],
    ] as const) {
      expect(spanToTransaction(fromScope(scope[0], scope[1], 300))).toEqual({
        kind: "rejected",
        reason: "gen_ai.usage.input_tokens (300) is less than its cache reads and writes (9200)",
      });
    }
  });

  it("reads the older names too: gen_ai.usage.prompt_tokens from OpenLLMetry before 0.23.0", () => {
    const verdict = spanToTransaction({
      ...span({
        "gen_ai.system": "Anthropic",
        "gen_ai.request.model": "claude-3-5-haiku-20241022",
        "gen_ai.usage.prompt_tokens": 300,
        "gen_ai.usage.completion_tokens": 500,
        "llm.usage.total_tokens": 800,
      }),
      scope: { name: "@traceloop/instrumentation-anthropic", version: "0.22.6" },
    });
    expect(metricsOf(verdict)).toEqual({ input_tokens: 300, output_tokens: 500, total_tokens: 800 });
    expect(verdict).toMatchObject({
      transaction: { provider: "anthropic", provider_usage_raw: { "llm.usage.total_tokens": 800 } },
    });
  });

  it("takes the cache-write name of August 2026 before the one it replaced", () => {
    const usage = {
      "gen_ai.usage.input_tokens": 9500,
      "gen_ai.usage.output_tokens": 500,
      "gen_ai.usage.cache_read.input_tokens": 8000,
      "gen_ai.usage.cache_write.input_tokens": 1200,
      "gen_ai.usage.cache_creation.input_tokens": 1,
    };
    expect(metricsOf(spanToTransaction(chat("anthropic", usage)))).toEqual(billed);
  });
});

describe("inRange", () => {
  it("compares versions part by part, bounds included; an unreadable version is in no bounded range", () => {
    expect(inRange("0.27.0", { through: "0.27.0" })).toBe(true);
    expect(inRange("0.9.1", { through: "0.27.0" })).toBe(true);
    expect(inRange("0.27.1", { through: "0.27.0" })).toBe(false);
    expect(inRange("1.0.0-beta.1", { from: "1.0.0", through: "1.0.0" })).toBe(true);
    expect(inRange("0.22.6", { from: "0.23.0" })).toBe(false);
    expect(inRange("", { through: "0.27.0" })).toBe(false);
    expect(inRange("", {})).toBe(true);
  });
});

describe("OpenInference spans", () => {
  const llm = (attributes: Record<string, AttributeValue>, scope = { name: "", version: "" }) => ({
    ...span({ "openinference.span.kind": "LLM", ...attributes }),
    scope,
  });

  it("reads an LLM span in full: model, provider, prompt with its cache, completion with its reasoning", () => {
    // As openinference-instrumentation-anthropic 1.1.2 (Python) writes a message's counts
    // (Arize-ai/openinference, python/instrumentation/openinference-instrumentation-anthropic/src/openinference/
    // instrumentation/anthropic/_utils.py, _get_token_counts: prompt = input + cache writes + cache reads).
    const verdict = spanToTransaction(
      llm(
        {
          "llm.model_name": "claude-sonnet-4-20250514",
          "llm.provider": "anthropic",
          "llm.system": "anthropic",
          "llm.token_count.prompt": 9500,
          "llm.token_count.completion": 500,
          "llm.token_count.prompt_details.cache_read": 8000,
          "llm.token_count.prompt_details.cache_write": 1200,
          "llm.token_count.total": 10_000,
        },
        { name: "openinference.instrumentation.anthropic", version: "1.1.2" },
      ),
    );
    expect(verdict).toMatchObject({
      transaction: {
        provider: "anthropic",
        model: "claude-sonnet-4-20250514",
        provider_usage_raw: { "llm.token_count.total": 10_000 },
      },
    });
    expect(metricsOf(verdict)).toEqual({
      input_tokens: 300,
      output_tokens: 500,
      total_tokens: 10_000,
      cache_read_input_tokens: 8000,
      cache_creation_input_tokens: 1200,
    });
    const reasoning = spanToTransaction(
      llm({
        "llm.model_name": "o4-mini",
        "llm.system": "openai",
        "llm.token_count.prompt": 1000,
        "llm.token_count.completion": 800,
        "llm.token_count.completion_details.reasoning": 600,
      }),
    );
    expect(metricsOf(reasoning)).toEqual({
      input_tokens: 1000,
      output_tokens: 800,
      total_tokens: 1800,
      reasoning_tokens: 600,
    });
  });

  it("ignores CHAIN, AGENT, TOOL, RETRIEVER and EMBEDDING spans, even with token counts", () => {
    for (const kind of ["CHAIN", "AGENT", "TOOL", "RETRIEVER", "EMBEDDING"]) {
      const verdict = spanToTransaction(
        span({
          "openinference.span.kind": kind,
          "llm.model_name": "gpt-4o",
          "llm.provider": "openai",
          "llm.token_count.prompt": 10,
          "llm.token_count.completion": 5,
        }),
      );
      expect(verdict.kind).toBe("ignored");
    }
  });

  it("rejects an LLM span without counts or model, naming the attributes looked for", () => {
    expect(spanToTransaction(llm({ "llm.model_name": "gpt-4o", "llm.provider": "openai" }))).toEqual({
      kind: "rejected",
      reason: expect.stringContaining("llm.token_count.prompt"),
    });
    expect(spanToTransaction(llm({ "llm.provider": "openai", "llm.token_count.prompt": 3 }))).toEqual({
      kind: "rejected",
      reason: expect.stringContaining("llm.model_name"),
    });
  });

  it("takes user.id as the customer, and session.id and agent.name as context the organization maps", () => {
    const attributes = {
      "llm.model_name": "gpt-4o-mini",
      "llm.provider": "openai",
      "llm.token_count.prompt": 3,
      "llm.token_count.completion": 2,
      "session.id": "sess-1",
      "user.id": "user-7",
      "agent.name": "planner",
    };
    expect(spanToTransaction(llm(attributes))).toMatchObject({
      transaction: { context: { billable_customer_id: "user-7" } },
    });
    expect(
      spanToTransaction(llm(attributes), { context_attributes: ["session=session.id", "agent=agent.name"] }),
    ).toMatchObject({
      transaction: { context: { billable_customer_id: "user-7", session: "sess-1", agent: "planner" } },
    });
  });

  it("maps OpenInference's provider names", () => {
    for (const [name, provider] of [
      ["google", "gemini"],
      ["vertexai", "gemini"],
      ["aws", "bedrock"],
      ["mistralai", "custom"],
    ]) {
      const verdict = spanToTransaction(
        llm({
          "llm.model_name": "m",
          "llm.provider": name as string,
          "llm.token_count.prompt": 3,
          "llm.token_count.completion": 2,
        }),
      );
      expect(verdict).toMatchObject({ transaction: { provider } });
    }
  });
});

describe("modality splits", () => {
  it("sends audio and image counts as side-specific metrics, their cached parts too", () => {
    const verdict = spanToTransaction(
      chat("openai", {
        "gen_ai.usage.input_tokens": 1000,
        "gen_ai.usage.output_tokens": 400,
        "gen_ai.usage.cache_read.input_tokens": 500,
        "gen_ai.usage.text.input_tokens": 300,
        "gen_ai.usage.audio.input_tokens": 600,
        "gen_ai.usage.image.input_tokens": 100,
        "gen_ai.usage.audio.output_tokens": 250,
        "gen_ai.usage.image.output_tokens": 50,
        "gen_ai.usage.audio.cache_read.input_tokens": 400,
        "gen_ai.usage.image.cache_read.input_tokens": 20,
        "gen_ai.usage.video.input_tokens": 0,
      }),
    );
    expect(metricsOf(verdict)).toEqual({
      input_tokens: 1000,
      output_tokens: 400,
      total_tokens: 1400,
      cache_read_input_tokens: 500,
      input_audio_tokens: 600,
      input_image_tokens: 100,
      output_audio_tokens: 250,
      output_image_tokens: 50,
      cached_audio_tokens: 400,
      cached_image_tokens: 20,
    });
  });

  it("reads OpenInference's audio details", () => {
    const verdict = spanToTransaction(
      span({
        "openinference.span.kind": "LLM",
        "llm.model_name": "gpt-4o-mini-audio-preview",
        "llm.provider": "openai",
        "llm.token_count.prompt": 900,
        "llm.token_count.completion": 300,
        "llm.token_count.prompt_details.audio": 700,
        "llm.token_count.completion_details.audio": 0,
      }),
    );
    expect(metricsOf(verdict)).toEqual({
      input_tokens: 900,
      output_tokens: 300,
      total_tokens: 1200,
      input_audio_tokens: 700,
    });
  });
});
