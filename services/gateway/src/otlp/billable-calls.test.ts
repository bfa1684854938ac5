import { describe, expect, it } from "vitest";
import { billableCalls } from "./billable-calls.ts";
import type { AttributeValue, DecodedSpan } from "./decode.ts";
import { recentCalls } from "./one-call-once.ts";

const TRACE = "0af7651916cd43dd8448eb211c80319c";
const span = (
  spanId: string,
  parentSpanId: string,
  attributes: Record<string, AttributeValue>,
  scope = { name: "", version: "" },
): DecodedSpan => ({
  traceId: TRACE,
  spanId,
  parentSpanId,
  name: "span",
  attributes: new Map(Object.entries(attributes)),
  resource: new Map([["service.name", "checkout"]]),
  scope,
});
const usage = {
  "gen_ai.operation.name": "chat",
  "gen_ai.provider.name": "anthropic",
  "gen_ai.request.model": "claude-sonnet-4-20250514",
  "gen_ai.usage.output_tokens": 500,
  "gen_ai.usage.cache_read.input_tokens": 8000,
};
/** OpenLLMetry's span around the SDK call (no response id; Anthropic's own input), as 0.27.0 writes it. */
const outer = (spanId = "00000000000000a1", parent = "00000000000000f0") =>
  span(
    spanId,
    parent,
    { ...usage, "gen_ai.usage.input_tokens": 300 },
    {
      name: "@traceloop/instrumentation-anthropic",
      version: "0.27.0",
    },
  );
/** The Anthropic SDK's own span for the same call, its child. */
const inner = (spanId = "00000000000000b1", parent = "00000000000000a1", id = "msg_01") =>
  span(
    spanId,
    parent,
    { ...usage, "gen_ai.usage.input_tokens": 8300, "gen_ai.response.id": id },
    {
      name: "com.anthropic.sdk.typescript",
      version: "0.137.0",
    },
  );
const root = span("00000000000000f0", "", { "http.route": "/ask" });

const billed = (calls: ReturnType<typeof billableCalls>) =>
  calls.map(({ span, verdict }) => [
    span.spanId,
    verdict.kind === "transaction" ? verdict.transaction.transaction_id : verdict.reason,
  ]);

describe("one call, billed once", () => {
  it("in one export: bills the innermost model call, never the span wrapping it", () => {
    const recent = recentCalls();
    expect(billed(billableCalls([inner(), outer(), root], {}, "org", recent))).toEqual([
      ["00000000000000b1", "msg_01"],
    ]);
    // The exporter's resend is decided alike.
    expect(billed(billableCalls([inner(), outer(), root], {}, "org", recent))).toEqual([
      ["00000000000000b1", "msg_01"],
    ]);
  });

  it("across exports, inner first: the wrapper that comes later is not billed", () => {
    const recent = recentCalls();
    expect(billed(billableCalls([inner()], {}, "org", recent))).toEqual([["00000000000000b1", "msg_01"]]);
    expect(billed(billableCalls([outer(), root], {}, "org", recent))).toEqual([]);
  });

  it("across exports, outer first: the inner call takes the wrapper's id, so the worker stores it once", () => {
    const recent = recentCalls();
    const wrapperId = `otel-${TRACE}-00000000000000a1`;
    expect(billed(billableCalls([outer()], {}, "org", recent))).toEqual([["00000000000000a1", wrapperId]]);
    expect(billed(billableCalls([inner()], {}, "org", recent))).toEqual([["00000000000000b1", wrapperId]]);
    // Resent, each keeps its decision.
    expect(billed(billableCalls([outer(), inner()], {}, "org", recent))).toEqual([
      ["00000000000000a1", wrapperId],
      ["00000000000000b1", wrapperId],
    ]);
  });

  it("bills two calls under an application span each, whatever their exports", () => {
    const recent = recentCalls();
    const first = inner("00000000000000b1", "00000000000000f0", "msg_01");
    const second = inner("00000000000000b2", "00000000000000f0", "msg_02");
    expect(billed(billableCalls([first], {}, "org", recent))).toEqual([["00000000000000b1", "msg_01"]]);
    expect(billed(billableCalls([second, root], {}, "org", recent))).toEqual([["00000000000000b2", "msg_02"]]);
  });

  it("finds the wrapper through spans that are not calls, and never bills agent, chain or workflow spans", () => {
    const recent = recentCalls();
    const http = span("00000000000000c1", "00000000000000a1", { "http.request.method": "POST" });
    const deep = inner("00000000000000b1", "00000000000000c1");
    const agent = span("00000000000000d1", "", {
      ...usage,
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.usage.input_tokens": 9,
    });
    const chain = span("00000000000000d2", "", { "openinference.span.kind": "CHAIN", "llm.token_count.prompt": 9 });
    const workflow = span("00000000000000d3", "", {
      ...usage,
      "gen_ai.usage.input_tokens": 9,
      "traceloop.span.kind": "workflow",
    });
    const calls = billableCalls(
      [deep, http, outer("00000000000000a1", "00000000000000d1"), agent, chain, workflow],
      {},
      "org",
      recent,
    );
    expect(billed(calls)).toEqual([["00000000000000b1", "msg_01"]]);
  });

  it("does not report a wrapper that could not be read when its inner call is billed", () => {
    const recent = recentCalls();
    const unreadable = span("00000000000000a1", "", { "gen_ai.operation.name": "chat", "gen_ai.request.model": "m" });
    expect(billed(billableCalls([inner(), unreadable], {}, "org", recent))).toEqual([["00000000000000b1", "msg_01"]]);
  });

  it("keeps organizations apart, and forgets after its time", () => {
    let now = 0;
    const recent = recentCalls({ ttlMs: 1000, now: () => now });
    billableCalls([inner()], {}, "org-a", recent);
    expect(billed(billableCalls([outer()], {}, "org-b", recent))).toHaveLength(1);
    now = 2000;
    expect(billed(billableCalls([outer()], {}, "org-a", recent))).toHaveLength(1);
  });

  it("fills the inner span's missing cache count from its wrapper when both report the same call", () => {
    const openai = { "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o-mini" };
    const wrapper = span("00000000000000a1", "", {
      ...openai,
      "gen_ai.provider.name": "openai",
      "gen_ai.usage.input_tokens": 2006,
      "gen_ai.usage.output_tokens": 300,
      "gen_ai.usage.cache_read.input_tokens": 1920,
    });
    const innerOf = (input: number) =>
      span("00000000000000b1", "00000000000000a1", {
        ...openai,
        "gen_ai.system": "openai",
        "gen_ai.response.id": "chatcmpl-1",
        "gen_ai.usage.input_tokens": input,
        "gen_ai.usage.output_tokens": 300,
      });
    const metrics = (calls: ReturnType<typeof billableCalls>) =>
      calls.map(
        ({ verdict }) =>
          verdict.kind === "transaction" && (verdict.transaction.usage as Array<{ metrics: unknown }>)[0]?.metrics,
      );
    expect(metrics(billableCalls([innerOf(2006), wrapper], {}, "org", recentCalls()))).toEqual([
      { input_tokens: 2006, output_tokens: 300, total_tokens: 2306, cache_read_input_tokens: 1920 },
    ]);
    // Not the same counts: not taken as the same report.
    expect(metrics(billableCalls([innerOf(2000), wrapper], {}, "org", recentCalls()))).toEqual([
      { input_tokens: 2000, output_tokens: 300, total_tokens: 2300 },
    ]);
  });
});
