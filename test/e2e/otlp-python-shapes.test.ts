import { type Attributes, context, SpanKind, trace } from "@opentelemetry/api";
import type { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { priceQueued } from "../setup/client.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { pullableTopic, seedOrganization, uniqueId } from "../setup/harness.ts";
import { customerCost, queuedSince, tracedExport } from "../setup/otlp-instrumented.ts";

/**
 * Python instrumentations cannot be installed here, so each span is built exactly as the instrumentation's
 * own source writes it (file and version cited at each), under its scope's name and version, and exported
 * through the OpenTelemetry SDK's protobuf exporter to POST /v1/traces, the worker and GET /usage/costs.
 *
 * Expected costs by hand: gpt-4o-mini (https://platform.openai.com/docs/pricing, as read 2026-11-22 for the
 * OTLP pipeline test), USD per million tokens: input 0.15, cached input 0.075, output 0.60.
 */

/**
 * opentelemetry-instrumentation-openai-v2 2.5b0 (open-telemetry/opentelemetry-python-contrib, instrumentation-
 * genai/opentelemetry-instrumentation-openai-v2/src/opentelemetry/instrumentation/openai_v2/): scope
 * `get_tracer(__name__, "")` in __init__.py (no version); utils.py get_llm_request_attributes (operation,
 * gen_ai.system on the default path, request model); patch.py _set_response_attributes (response model and
 * id, usage.prompt_tokens and completion_tokens; no cached count for Chat Completions).
 */
const CONTRIB = { name: "opentelemetry.instrumentation.openai_v2", version: "" };
const contribChat = (id: string): Attributes => ({
  "gen_ai.operation.name": "chat",
  "gen_ai.system": "openai",
  "gen_ai.request.model": "gpt-4o-mini",
  "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
  "gen_ai.response.id": id,
  "gen_ai.usage.input_tokens": 2006,
  "gen_ai.usage.output_tokens": 300,
});

/**
 * opentelemetry-instrumentation-openai 0.62.1 (traceloop/openllmetry, packages/opentelemetry-instrumentation-
 * openai/opentelemetry/instrumentation/openai/): scope `get_tracer(__name__, __version__)` in v1/__init__.py;
 * shared/__init__.py _set_request_attributes (gen_ai.provider.name), _set_response_attributes (response
 * model and id, gen_ai.usage.total_tokens, output_tokens, input_tokens = prompt_tokens, cache_read.input_tokens
 * = prompt_tokens_details.cached_tokens); shared/chat_wrappers.py (gen_ai.usage.reasoning_tokens).
 */
const OPENLLMETRY = { name: "opentelemetry.instrumentation.openai.v1", version: "0.62.1" };
const openLLMetryChat = (id: string): Attributes => ({
  "gen_ai.operation.name": "chat",
  "gen_ai.provider.name": "openai",
  "gen_ai.request.model": "gpt-4o-mini",
  "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
  "gen_ai.response.id": id,
  "gen_ai.usage.total_tokens": 2306,
  "gen_ai.usage.output_tokens": 300,
  "gen_ai.usage.input_tokens": 2006,
  "gen_ai.usage.cache_read.input_tokens": 1920,
  "gen_ai.usage.reasoning_tokens": 0,
});

// (2006 - 1920) x 150 + 1920 x 75 + 300 x 600 nano-USD = 12 900 + 144 000 + 180 000
const CACHED_NANOS = 336_900;
// Without the cached count the whole prompt is input: 2006 x 150 + 300 x 600 = 300 900 + 180 000
const UNCACHED_NANOS = 480_900;

let org: Awaited<ReturnType<typeof seedOrganization>>;
let topic: Awaited<ReturnType<typeof pullableTopic>>;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;

beforeAll(async () => {
  org = await seedOrganization();
  topic = await pullableTopic();
  gateway = await startTestGateway({ topicName: topic.topicName });
});
afterAll(() => gateway?.close());

const target = () => ({ url: gateway.baseUrl, apiKey: org.apiKey, readKey: org.readKey });

/** Emits `outer`, and `inner` as its child when given, each from its scope, as a wrapped call does. */
function emit(
  provider: NodeTracerProvider,
  outer: { scope: { name: string; version: string }; attributes: Attributes },
  inner?: { scope: { name: string; version: string }; attributes: Attributes },
) {
  const tracerOf = ({ name, version }: { name: string; version: string }) =>
    provider.getTracer(name, version === "" ? undefined : version);
  const parent = tracerOf(outer.scope).startSpan("chat gpt-4o-mini", { kind: SpanKind.CLIENT });
  if (inner) {
    context.with(trace.setSpan(context.active(), parent), () => {
      tracerOf(inner.scope)
        .startSpan("chat gpt-4o-mini", { kind: SpanKind.CLIENT, attributes: inner.attributes })
        .end();
    });
  }
  parent.setAttributes(outer.attributes);
  parent.end();
}

describe("Python instrumentations' spans, as their source writes them", () => {
  it("contrib openai-v2: Chat Completions exports no cached count, so the whole prompt is input", async () => {
    const customer = uniqueId("py-contrib");
    await tracedExport(target(), customer, async (provider) => {
      emit(provider, { scope: CONTRIB, attributes: contribChat(uniqueId("chatcmpl")) });
    });
    await priceQueued(topic, org.organizationId, 1);
    expect(await customerCost(target(), customer)).toEqual({ cost_nanos: UNCACHED_NANOS, transactions: 1 });
  });

  it("OpenLLMetry 0.62.1 for OpenAI: cached input at its own rate", async () => {
    const customer = uniqueId("py-openllmetry-openai");
    await tracedExport(target(), customer, async (provider) => {
      emit(provider, { scope: OPENLLMETRY, attributes: openLLMetryChat(uniqueId("chatcmpl")) });
    });
    await priceQueued(topic, org.organizationId, 1);
    expect(await customerCost(target(), customer)).toEqual({ cost_nanos: CACHED_NANOS, transactions: 1 });
  });

  it.each([
    ["OpenLLMetry around contrib", OPENLLMETRY, CONTRIB],
    ["contrib around OpenLLMetry", CONTRIB, OPENLLMETRY],
  ] as const)("both instrumenting one call (%s): billed once, with the cached count", async (_, outer, inner) => {
    const customer = uniqueId("py-nested");
    const id = uniqueId("chatcmpl");
    const since = gateway.logger.lines.length;
    const attributesOf = (scope: typeof outer | typeof inner) =>
      scope === CONTRIB ? contribChat(id) : openLLMetryChat(id);
    await tracedExport(target(), customer, async (provider) => {
      emit(
        provider,
        { scope: outer, attributes: attributesOf(outer) },
        { scope: inner, attributes: attributesOf(inner) },
      );
    });
    expect(queuedSince(gateway.logger, org.organizationId, since)).toBe(1);
    const records = [...(await priceQueued(topic, org.organizationId, 1)).values()];
    expect(records).toEqual([expect.objectContaining({ status: "priced", transaction_id: id })]);
    expect(await customerCost(target(), customer)).toEqual({ cost_nanos: CACHED_NANOS, transactions: 1 });
  });
});
