import type { AttributeValue, DecodedSpan } from "./decode.ts";
import type { spanToTransaction } from "./span-to-transaction.ts";

/** Spans as the decoder gives them, and what a verdict priced: shared by the span mapping's tests. */
export const span = (
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

export const chat = (provider: string, usage: Record<string, number>, more: Record<string, AttributeValue> = {}) =>
  span({
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": provider,
    "gen_ai.request.model": "requested-model",
    ...usage,
    ...more,
  });

export const metricsOf = (verdict: ReturnType<typeof spanToTransaction>) => {
  if (verdict.kind !== "transaction") throw new Error(`expected a transaction, got ${JSON.stringify(verdict)}`);
  return (verdict.transaction.usage as Array<{ metrics: Record<string, unknown> }>)[0]?.metrics;
};
