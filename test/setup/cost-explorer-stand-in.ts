import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for AWS Cost Explorer as the reconciliation's Bedrock reader calls it (AWS is not reachable
 * from the tests): the JSON 1.1 protocol, `POST /` with `X-Amz-Target: AWSInsightsIndexService.GetCostAndUsage`,
 * answering `{ GroupDefinitions, ResultsByTime: [{ TimePeriod: { Start, End }, Total, Groups: [{ Keys,
 * Metrics: { UnblendedCost: { Amount, Unit }, UsageQuantity: { Amount, Unit } } }], Estimated }],
 * DimensionValueAttributes, NextPageToken }` (docs.aws.amazon.com/aws-cost-management/latest/APIReference/
 * API_GetCostAndUsage.html, read 2026-11-29), and errors as `{ __type, message }` with status 400.
 *
 * The test sets each UTC day's lines (and may change a day between runs: a restated day). It serves every
 * day of the asked `TimePeriod` (a day with no lines has no groups, as Cost Explorer answers an empty day),
 * `pageSize` days a page with a `NextPageToken`, a ThrottlingException to the next `throttle` requests, and
 * records every request.
 */
export interface CostLine {
  service: string;
  usageType: string;
  cost: string;
  quantity: string;
  unit: string;
}

export interface CostExplorerStandInState {
  days: Record<string, CostLine[]>;
  throttle: number;
  pageSize: number;
  /** Every request gets this error instead (a refused key). */
  failWith?: { status: number; type: string; message: string };
  requests: Array<{ target: string; headers: IncomingHttpHeaders; body: Record<string, unknown> }>;
}

export interface CostExplorerStandIn {
  endpoint: string;
  state: CostExplorerStandInState;
  close(): Promise<void>;
}

const DAY_MS = 86_400_000;

export async function costExplorerStandIn(): Promise<CostExplorerStandIn> {
  const state: CostExplorerStandInState = { days: {}, throttle: 0, pageSize: 2, requests: [] };
  const send = (res: http.ServerResponse, status: number, body: unknown) =>
    res
      .writeHead(status, { "content-type": "application/x-amz-json-1.1", "x-amzn-requestid": "stand-in" })
      .end(JSON.stringify(body));
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
    const target = String(req.headers["x-amz-target"] ?? "");
    state.requests.push({ target, headers: req.headers, body });
    if (state.failWith) {
      send(res, state.failWith.status, { __type: state.failWith.type, message: state.failWith.message });
      return;
    }
    if (target !== "AWSInsightsIndexService.GetCostAndUsage") {
      send(res, 400, { __type: "UnknownOperationException" });
      return;
    }
    if (state.throttle > 0) {
      state.throttle--;
      send(res, 400, { __type: "ThrottlingException", message: "Rate exceeded" });
      return;
    }
    const period = body.TimePeriod as { Start: string; End: string };
    const end = Date.parse(`${period.End}T00:00:00Z`);
    const token = body.NextPageToken as string | undefined;
    let at = token ? Number(token) : Date.parse(`${period.Start}T00:00:00Z`);
    const results: unknown[] = [];
    for (let served = 0; at < end && served < state.pageSize; at += DAY_MS, served++) {
      const day = new Date(at).toISOString().slice(0, 10);
      results.push({
        TimePeriod: { Start: day, End: new Date(at + DAY_MS).toISOString().slice(0, 10) },
        Total: {},
        Groups: (state.days[day] ?? []).map((line) => ({
          Keys: [line.service, line.usageType],
          Metrics: {
            UnblendedCost: { Amount: line.cost, Unit: "USD" },
            UsageQuantity: { Amount: line.quantity, Unit: line.unit },
          },
        })),
        Estimated: at + 3 * DAY_MS > Date.now(),
      });
    }
    send(res, 200, {
      GroupDefinitions: [
        { Type: "DIMENSION", Key: "SERVICE" },
        { Type: "DIMENSION", Key: "USAGE_TYPE" },
      ],
      ResultsByTime: results,
      DimensionValueAttributes: [],
      ...(at < end ? { NextPageToken: String(at) } : {}),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    state,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
