import { ExportTraceServiceRequest } from "../otlp/decode.ts";

const TRACE_ID = "5b8efff798038103d269b633813fc60c";

const attribute = (key: string, value: string | number) => ({
  key,
  value: typeof value === "string" ? { stringValue: value } : { intValue: String(value) },
});

let spans = 0;

/** A span of OTLP/JSON with these attributes and a span id of its own. */
export function jsonSpan(attributes: Record<string, string | number>) {
  spans += 1;
  return {
    traceId: TRACE_ID,
    spanId: spans.toString(16).padStart(16, "0"),
    name: "span",
    kind: 3,
    startTimeUnixNano: "1795551367162000000",
    endTimeUnixNano: "1795551367262000000",
    attributes: Object.entries(attributes).map(([key, value]) => attribute(key, value)),
  };
}

/** A chat call of the GenAI conventions, with its response id (the transaction id) and token counts. */
export const chatSpan = (responseId: string, more: Record<string, string | number> = {}) =>
  jsonSpan({
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": "openai",
    "gen_ai.request.model": "gpt-4o-mini",
    "gen_ai.response.id": responseId,
    "gen_ai.usage.input_tokens": 12,
    "gen_ai.usage.output_tokens": 3,
    ...more,
  });

/** An ExportTraceServiceRequest of OTLP/JSON holding `spanList`, from the service `checkout` (the customer). */
export const jsonExport = (spanList: unknown[]) => ({
  resourceSpans: [
    {
      resource: { attributes: [attribute("service.name", "checkout")] },
      scopeSpans: [{ scope: { name: "test" }, spans: spanList }],
    },
  ],
});

/** The same export in the binary encoding, where ids are bytes rather than OTLP/JSON's hex. */
export function protobufExport(spanList: ReadonlyArray<ReturnType<typeof jsonSpan>>): Uint8Array<ArrayBuffer> {
  const binary = spanList.map((span) => ({
    ...span,
    traceId: Buffer.from(span.traceId, "hex"),
    spanId: Buffer.from(span.spanId, "hex"),
  }));
  const message = ExportTraceServiceRequest.fromObject(jsonExport(binary));
  return new Uint8Array(ExportTraceServiceRequest.encode(message).finish());
}
