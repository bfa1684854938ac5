import { describe, expect, it } from "vitest";
import { decodeTraces, ExportTraceServiceRequest } from "./decode.ts";

const json = {
  resourceSpans: [
    {
      scopeSpans: [
        {
          scope: { name: "@traceloop/instrumentation-anthropic", version: "0.27.0" },
          spans: [
            {
              traceId: "0af7651916cd43dd8448eb211c80319c",
              spanId: "b7ad6b7169203331",
              parentSpanId: "00f067aa0ba902b7",
              name: "anthropic.chat",
            },
          ],
        },
        { spans: [{ traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "00f067aa0ba902b7", name: "root" }] },
      ],
    },
  ],
};
const ids = new Set(["traceId", "spanId", "parentSpanId"]);
const binary = Buffer.from(
  ExportTraceServiceRequest.encode(
    ExportTraceServiceRequest.fromObject(
      JSON.parse(JSON.stringify(json), (key, value) => (ids.has(key) ? Buffer.from(value, "hex") : value)),
    ),
  ).finish(),
);

describe("decodeTraces: where each span comes from", () => {
  it("gives each span its scope's name and version and its parent's id, in both encodings", () => {
    for (const decoded of [decodeTraces(binary, "protobuf"), decodeTraces(Buffer.from(JSON.stringify(json)), "json")]) {
      if (!decoded.ok) throw new Error(decoded.message);
      expect(decoded.spans.map(({ parentSpanId, scope }) => ({ parentSpanId, scope }))).toEqual([
        {
          parentSpanId: "00f067aa0ba902b7",
          scope: { name: "@traceloop/instrumentation-anthropic", version: "0.27.0" },
        },
        { parentSpanId: "", scope: { name: "", version: "" } },
      ]);
    }
  });
});
