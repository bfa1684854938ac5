import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";

/**
 * What tests of real instrumentation libraries share: a local stand-in for a vendor's API serving its
 * documented response shapes, a tracer provider exporting through the real protobuf exporter, and the
 * cost GET /usage/costs reports for one customer.
 */

/** An answer queued for the stand-in: the response id and the usage it reports. */
export interface Answer {
  id: string;
  /** Counts, and for some vendors objects of counts (OpenAI's `prompt_tokens_details`). */
  usage: Record<string, number | Record<string, number>>;
}

/**
 * A stand-in for a vendor API: each POST answers the next queued answer as `respond` writes it (JSON,
 * or server-sent events when the request asked for a stream); with none queued, a 500.
 */
export async function standIn(
  respond: (answer: Answer, request: Record<string, unknown>, res: ServerResponse) => void,
) {
  const answers: Answer[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const next = answers.shift();
      if (!next) return void res.writeHead(500).end();
      respond(next, JSON.parse(body || "{}") as Record<string, unknown>, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answer: (answer: Answer) => answers.push(answer),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Server-sent events, as the vendors' streaming APIs write them. */
export function writeEvents(res: ServerResponse, events: Array<[string | undefined, unknown]>) {
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.end(
    events
      .map(
        ([event, data]) =>
          `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`,
      )
      .join(""),
  );
}

/**
 * A registered tracer provider whose spans carry `customer` as the resource's service.name (the default
 * customer), exported when `run` is done: in one batch (the batch processor, as deployed), or each span
 * in its own export as it ends (the simple processor).
 */
export async function tracedExport(
  target: { url: string; apiKey: string },
  customer: string,
  run: (provider: NodeTracerProvider) => Promise<void>,
  processor: "batch" | "simple" = "batch",
) {
  const exporter = new OTLPTraceExporter({ url: `${target.url}/v1/traces`, headers: { "X-Api-Key": target.apiKey } });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": customer }),
    spanProcessors: [processor === "batch" ? new BatchSpanProcessor(exporter) : new SimpleSpanProcessor(exporter)],
  });
  // The context manager, so that the SDK's own span is the child of the instrumentation's.
  provider.register();
  await run(provider);
  await provider.forceFlush();
  await provider.shutdown();
}

/** What GET /usage/costs reports for one customer: its cost and its transactions. */
export async function customerCost(target: { url: string; readKey: string }, customer: string) {
  const response = await fetch(`${target.url}/usage/costs?group_by=billable_customer_id`, {
    headers: { "x-api-key": target.readKey },
  });
  const body = (await response.json()) as {
    groups: Array<{ key: Record<string, string>; cost_nanos: string; transactions: number }>;
  };
  const group = body.groups.find((g) => g.key.billable_customer_id === customer);
  return { cost_nanos: Number(group?.cost_nanos ?? 0), transactions: group?.transactions ?? 0 };
}

/** An Anthropic Messages API answer in its documented shape (https://docs.anthropic.com/en/api/messages). */
export const anthropicMessage = (model: string, { id, usage }: Answer) => ({
  id,
  type: "message",
  role: "assistant",
  model,
  content: [{ type: "text", text: "Hello" }],
  stop_reason: "end_turn",
  stop_sequence: null,
  usage,
});

/** A stand-in for Anthropic's POST /v1/messages, JSON or streamed (message_start holds the input counts). */
export const anthropicStandIn = (model: string) =>
  standIn((answer, request, res) => {
    if (!request.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(anthropicMessage(model, answer)));
      return;
    }
    const { output_tokens, ...input } = answer.usage;
    writeEvents(res, [
      [
        "message_start",
        {
          type: "message_start",
          message: {
            ...anthropicMessage(model, { id: answer.id, usage: { ...input, output_tokens: 1 } }),
            content: [],
          },
        },
      ],
      ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
      ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello" } }],
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      [
        "message_delta",
        { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens } },
      ],
      ["message_stop", { type: "message_stop" }],
    ]);
  });

/** The transactions a test gateway queued for an organization's exports from its log line `since` on. */
export const queuedSince = (
  logger: { lines: Array<{ message: string; fields?: Record<string, unknown> }> },
  organizationId: string,
  since: number,
) =>
  logger.lines
    .slice(since)
    .filter((line) => line.message.startsWith("POST /v1/traces") && line.fields?.organization_id === organizationId)
    .reduce((sum, line) => sum + Number(line.fields?.events_queued ?? 0), 0);
