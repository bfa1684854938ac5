import { describe, expect, it } from "vitest";
import { chat, metricsOf, span } from "./span-test-support.ts";
import { spanToTransaction } from "./span-to-transaction.ts";

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
