import { describe, expect, it } from "vitest";
import type { AttributeValue, DecodedSpan } from "./decode.ts";
import { inRange } from "./dialects.ts";
import { spanToTransaction } from "./span-to-transaction.ts";

const span = (
  attributes: Record<string, AttributeValue>,
  resource: Record<string, AttributeValue> = { "service.name": "checkout" },
): DecodedSpan => ({
  traceId: "0af7651916cd43dd8448eb211c80319c",
  spanId: "b7ad6b7169203331",
  parentSpanId: "",
  name: "chat",
  attributes: new Map(Object.entries(attributes)),
  resource: new Map(Object.entries(resource)),
  scope: { name: "", version: "" },
});

const chat = (provider: string, usage: Record<string, number>, more: Record<string, AttributeValue> = {}) =>
  span({
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": provider,
    "gen_ai.request.model": "requested-model",
    ...usage,
    ...more,
  });

const metricsOf = (verdict: ReturnType<typeof spanToTransaction>) => {
  if (verdict.kind !== "transaction") throw new Error(`expected a transaction, got ${JSON.stringify(verdict)}`);
  return (verdict.transaction.usage as Array<{ metrics: Record<string, unknown> }>)[0]?.metrics;
};

describe("which spans are model calls", () => {
  it("ignores spans without GenAI attributes, agent and tool spans, even with usage totals", () => {
    expect(spanToTransaction(span({ "http.request.method": "GET" })).kind).toBe("ignored");
    for (const operation of ["invoke_agent", "execute_tool", "create_agent"]) {
      const verdict = spanToTransaction(
        span({
          "gen_ai.operation.name": operation,
          "gen_ai.provider.name": "openai",
          "gen_ai.request.model": "gpt-4o",
          "gen_ai.usage.input_tokens": 10,
          "gen_ai.usage.output_tokens": 5,
        }),
      );
      expect(verdict.kind).toBe("ignored");
    }
  });

  it("takes a span without an operation name when it names a provider and reports usage (older conventions)", () => {
    const verdict = spanToTransaction(
      span({
        "gen_ai.system": "openai.chat",
        "gen_ai.request.model": "gpt-4o",
        "gen_ai.usage.prompt_tokens": 10,
        "gen_ai.usage.completion_tokens": 5,
      }),
    );
    expect(verdict).toMatchObject({ kind: "transaction", transaction: { provider: "openai", model: "gpt-4o" } });
    expect(metricsOf(verdict)).toEqual({ input_tokens: 10, output_tokens: 5, total_tokens: 15 });
    // The AI SDK's outer span names no GenAI provider: not a call of its own.
    expect(spanToTransaction(span({ "ai.usage.inputTokens": 10, "ai.usage.outputTokens": 5 })).kind).toBe("ignored");
  });

  it("rejects a model call without usage or model, with the reason", () => {
    expect(spanToTransaction(span({ "gen_ai.operation.name": "chat", "gen_ai.request.model": "m" }))).toEqual({
      kind: "rejected",
      reason: expect.stringContaining("no token usage"),
    });
    expect(spanToTransaction(span({ "gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": 1 }))).toEqual({
      kind: "rejected",
      reason: expect.stringContaining("gen_ai.request.model"),
    });
  });
});

describe("provider, model, id and tier", () => {
  it.each([
    ["openai", "openai"],
    ["anthropic", "anthropic"],
    ["gcp.gemini", "gemini"],
    ["gcp.vertex_ai", "gemini"],
    ["aws.bedrock", "bedrock"],
    ["x_ai", "xai"],
    ["deepseek", "deepseek"],
    ["mistral_ai", "custom"],
    ["google.generative-ai", "gemini"],
  ])("%s is %s", (name, provider) => {
    const verdict = spanToTransaction(chat(name, { "gen_ai.usage.input_tokens": 3, "gen_ai.usage.output_tokens": 2 }));
    expect(verdict).toMatchObject({ transaction: { provider } });
  });

  it("prefers the response model and id, and the response's service tier", () => {
    const verdict = spanToTransaction(
      chat(
        "openai",
        { "gen_ai.usage.input_tokens": 3, "gen_ai.usage.output_tokens": 2 },
        {
          "gen_ai.response.model": "gpt-4o-2024-08-06",
          "gen_ai.response.id": "chatcmpl-123",
          "gen_ai.openai.request.service_tier": "auto",
          "gen_ai.openai.response.service_tier": "flex",
        },
      ),
    );
    expect(verdict).toMatchObject({
      transaction: { model: "gpt-4o-2024-08-06", transaction_id: "chatcmpl-123", model_tier: "flex" },
    });
  });

  it("uses the trace and span ids when the response has no id", () => {
    const verdict = spanToTransaction(
      chat("openai", { "gen_ai.usage.input_tokens": 3, "gen_ai.usage.output_tokens": 2 }),
    );
    expect(verdict).toMatchObject({
      transaction: { transaction_id: "otel-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331" },
    });
  });
});

describe("token counts in each vendor's own convention", () => {
  const usage = {
    "gen_ai.usage.input_tokens": 1000,
    "gen_ai.usage.output_tokens": 500,
    "gen_ai.usage.cache_read.input_tokens": 600,
    "gen_ai.usage.cache_creation.input_tokens": 100,
    "gen_ai.usage.reasoning.output_tokens": 200,
  };

  it("anthropic and bedrock: cache reads and writes taken out of the input", () => {
    for (const provider of ["anthropic", "aws.bedrock"]) {
      expect(metricsOf(spanToTransaction(chat(provider, usage)))).toEqual({
        input_tokens: 300,
        output_tokens: 500,
        total_tokens: 1500,
        cache_read_input_tokens: 600,
        cache_creation_input_tokens: 100,
        reasoning_tokens: 200,
      });
    }
  });

  it("takes cache writes under the conventions' metric name too", () => {
    const { "gen_ai.usage.cache_creation.input_tokens": writes, ...rest } = usage;
    const written = { ...rest, "gen_ai.usage.cache_write.input_tokens": writes };
    expect(metricsOf(spanToTransaction(chat("anthropic", written)))).toMatchObject({
      input_tokens: 300,
      cache_creation_input_tokens: 100,
    });
  });

  it("openai: reads and writes inside the input, reasoning inside the output", () => {
    expect(metricsOf(spanToTransaction(chat("openai", usage)))).toMatchObject({
      input_tokens: 1000,
      output_tokens: 500,
    });
  });

  it("gemini and xai: reasoning reported outside the output; writes not inside their input", () => {
    for (const provider of ["gcp.gemini", "x_ai"]) {
      expect(metricsOf(spanToTransaction(chat(provider, usage)))).toMatchObject({
        input_tokens: 900,
        output_tokens: 300,
        reasoning_tokens: 200,
      });
    }
  });

  it("reads the Vercel AI SDK's ai.usage.* when the GenAI names are absent", () => {
    const verdict = spanToTransaction(
      span({
        "gen_ai.system": "anthropic.messages",
        "gen_ai.request.model": "claude-haiku-4-5",
        "ai.usage.inputTokens": 50,
        "ai.usage.outputTokens": 7,
        "ai.usage.inputTokenDetails.cacheReadTokens": 20,
      }),
    );
    expect(metricsOf(verdict)).toEqual({
      input_tokens: 30,
      output_tokens: 7,
      total_tokens: 57,
      cache_read_input_tokens: 20,
    });
  });

  it("refuses counts whose parts exceed their whole, and passes non-counts on for validation to name", () => {
    expect(
      spanToTransaction(
        chat("anthropic", { "gen_ai.usage.input_tokens": 5, "gen_ai.usage.cache_read.input_tokens": 9 }),
      ),
    ).toEqual({ kind: "rejected", reason: expect.stringContaining("less than its cache reads") });
    expect(
      metricsOf(
        spanToTransaction(chat("openai", { "gen_ai.usage.input_tokens": 1.5, "gen_ai.usage.output_tokens": 2 })),
      ),
    ).toEqual({ input_tokens: 1.5, output_tokens: 2 });
  });
});

describe("customer and context", () => {
  const usage = { "gen_ai.usage.input_tokens": 3, "gen_ai.usage.output_tokens": 2 };

  it("defaults to enduser.id, then user.id, then the resource's service.name", () => {
    expect(spanToTransaction(chat("openai", usage, { "enduser.id": "u1", "user.id": "u2" }))).toMatchObject({
      transaction: { context: { billable_customer_id: "u1" } },
    });
    expect(spanToTransaction(chat("openai", usage, { "user.id": "u2" }))).toMatchObject({
      transaction: { context: { billable_customer_id: "u2" } },
    });
    expect(spanToTransaction(chat("openai", usage))).toMatchObject({
      transaction: { context: { billable_customer_id: "checkout" } },
    });
  });

  it("reads the organization's attributes, from the span or its resource, as key or key=attribute", () => {
    const verdict = spanToTransaction(
      chat("openai", usage, { "ai.settings.context.customerId": "cust-9", "app.feature": "search" }),
      {
        customer_attribute: "ai.settings.context.customerId",
        context_attributes: ["feature=app.feature", "service.name"],
      },
    );
    expect(verdict).toMatchObject({
      transaction: { context: { billable_customer_id: "cust-9", feature: "search", "service.name": "checkout" } },
    });
  });

  it("leaves the customer out when the organization's attribute is absent (validation refuses it)", () => {
    const verdict = spanToTransaction(chat("openai", usage, { "enduser.id": "u1" }), { customer_attribute: "tenant" });
    expect(verdict).toMatchObject({ transaction: { context: { billable_customer_id: undefined } } });
  });
});

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
