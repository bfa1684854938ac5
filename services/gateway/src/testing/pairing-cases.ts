import { expect, it } from "vitest";
import { billableCalls, readCalls } from "../otlp/billable-calls.ts";
import type { AttributeValue, DecodedSpan } from "../otlp/decode.ts";
import type { CallPairing } from "../otlp/one-call-once.ts";

/**
 * One call billed once, whichever store the pairing keeps (an instance's memory, or Firestore for all
 * instances): each case gets a fresh pairing and organization from `fresh`.
 */
export const TRACE = "0af7651916cd43dd8448eb211c80319c";
export const span = (
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
export const usage = {
  "gen_ai.operation.name": "chat",
  "gen_ai.provider.name": "anthropic",
  "gen_ai.request.model": "claude-sonnet-4-20250514",
  "gen_ai.usage.output_tokens": 500,
  "gen_ai.usage.cache_read.input_tokens": 8000,
};
/** OpenLLMetry's span around the SDK call (no response id; Anthropic's own input), as 0.27.0 writes it. */
export const outer = (spanId = "00000000000000a1", parent = "00000000000000f0") =>
  span(
    spanId,
    parent,
    { ...usage, "gen_ai.usage.input_tokens": 300 },
    { name: "@traceloop/instrumentation-anthropic", version: "0.27.0" },
  );
/** The Anthropic SDK's own span for the same call, its child. */
export const inner = (spanId = "00000000000000b1", parent = "00000000000000a1", id = "msg_01") =>
  span(
    spanId,
    parent,
    { ...usage, "gen_ai.usage.input_tokens": 8300, "gen_ai.response.id": id },
    { name: "com.anthropic.sdk.typescript", version: "0.137.0" },
  );
export const root = span("00000000000000f0", "", { "http.route": "/ask" });

/** Each billed or rejected call of one export: its span id and transaction id, or its reason. */
export async function bill(spans: DecodedSpan[], organization: string, pairing: CallPairing) {
  const calls = await billableCalls(readCalls(spans, {}), organization, pairing);
  return calls.map(({ span, verdict }) => [
    span.spanId,
    verdict.kind === "transaction" ? verdict.transaction.transaction_id : verdict.reason,
  ]);
}

export function pairingCases(fresh: () => { pairing: CallPairing; organization: string }) {
  it("in one export: bills the innermost model call, never the span wrapping it", async () => {
    const { pairing, organization } = fresh();
    expect(await bill([inner(), outer(), root], organization, pairing)).toEqual([["00000000000000b1", "msg_01"]]);
    // The exporter's resend is decided alike.
    expect(await bill([inner(), outer(), root], organization, pairing)).toEqual([["00000000000000b1", "msg_01"]]);
  });

  it("across exports, inner first: the wrapper that comes later is not billed", async () => {
    const { pairing, organization } = fresh();
    expect(await bill([inner()], organization, pairing)).toEqual([["00000000000000b1", "msg_01"]]);
    expect(await bill([outer(), root], organization, pairing)).toEqual([]);
  });

  it("across exports, outer first: the inner call takes the wrapper's id, so the worker stores it once", async () => {
    const { pairing, organization } = fresh();
    const wrapperId = `otel-${TRACE}-00000000000000a1`;
    expect(await bill([outer()], organization, pairing)).toEqual([["00000000000000a1", wrapperId]]);
    expect(await bill([inner()], organization, pairing)).toEqual([["00000000000000b1", wrapperId]]);
    // Resent, each keeps its decision.
    expect(await bill([outer(), inner()], organization, pairing)).toEqual([
      ["00000000000000a1", wrapperId],
      ["00000000000000b1", wrapperId],
    ]);
  });

  it("bills two calls under an application span each, whatever their exports", async () => {
    const { pairing, organization } = fresh();
    const first = inner("00000000000000b1", "00000000000000f0", "msg_01");
    const second = inner("00000000000000b2", "00000000000000f0", "msg_02");
    expect(await bill([first], organization, pairing)).toEqual([["00000000000000b1", "msg_01"]]);
    expect(await bill([second, root], organization, pairing)).toEqual([["00000000000000b2", "msg_02"]]);
  });

  it("finds the wrapper through spans that are not calls, and never bills agent, chain or workflow spans", async () => {
    const { pairing, organization } = fresh();
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
    const spans = [deep, http, outer("00000000000000a1", "00000000000000d1"), agent, chain, workflow];
    expect(await bill(spans, organization, pairing)).toEqual([["00000000000000b1", "msg_01"]]);
  });

  it("reports an unreadable call, but not an unreadable wrapper whose inner call is billed", async () => {
    const { pairing, organization } = fresh();
    const unreadable = span("00000000000000a1", "", { "gen_ai.operation.name": "chat", "gen_ai.request.model": "m" });
    expect(await bill([inner(), unreadable], organization, pairing)).toEqual([["00000000000000b1", "msg_01"]]);
    const alone = span("00000000000000e1", "", { "gen_ai.operation.name": "chat", "gen_ai.request.model": "m" });
    const [reported] = await bill([alone], organization, pairing);
    expect(reported?.[0]).toBe("00000000000000e1");
    expect(reported?.[1]).toMatch(/token/);
  });

  it("keeps organizations apart", async () => {
    const a = fresh();
    const b = { ...a, organization: `${a.organization}-b` };
    await bill([inner()], a.organization, a.pairing);
    expect(await bill([outer()], b.organization, b.pairing)).toHaveLength(1);
    expect(await bill([outer()], a.organization, a.pairing)).toHaveLength(0);
  });
}
