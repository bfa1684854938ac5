import { handleMessage } from "@usage-ingestion/records";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validTransaction } from "../setup/fixtures.ts";
import { hangingPublisher, startTestGateway } from "../setup/gateway.ts";
import { pullableTopic, seedOrganization } from "../setup/harness.ts";
import { envelope, pushEvent, workerDeps } from "../setup/worker.ts";

/** One request's log lines, gateway and worker, joined by the trace Cloud Run sends; aborted requests logged. */
const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const TRACE = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", sampled: true };

describe("request log lines and traces on the emulators", () => {
  let topic: Awaited<ReturnType<typeof pullableTopic>>;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let org: Awaited<ReturnType<typeof seedOrganization>>;
  const lineOf = (response: Response) =>
    gateway.logger.lines.find((line) => line.fields?.request_id === response.headers.get("x-request-id"));

  beforeAll(async () => {
    topic = await pullableTopic();
    gateway = await startTestGateway({ topicName: topic.topicName });
    org = await seedOrganization();
  });
  afterAll(() => gateway.close());

  it("logs the request under the traceparent's trace and forwards it to the worker, whose line joins it", async () => {
    const response = await gateway.post(validTransaction(), { "X-Api-Key": org.apiKey, traceparent: TRACEPARENT });
    expect(response.status).toBe(202);
    const [message] = await topic.pull(1);
    expect(message?.attributes).toEqual({
      organization_id: org.organizationId,
      schema_version: "1",
      traceparent: TRACEPARENT,
    });
    expect(lineOf(response)?.fields?.trace).toEqual(TRACE);

    const deps = workerDeps();
    const event = pushEvent(message?.data);
    Object.assign(event.data?.message?.attributes ?? {}, message?.attributes);
    expect(await handleMessage(deps, event)).toBe("priced");
    expect(deps.logger.lines).toHaveLength(1);
    expect(deps.logger.lines[0]?.fields).toMatchObject({ organization_id: org.organizationId, trace: TRACE });
  });

  it("logs no trace and adds no attribute when the request has none", async () => {
    const response = await gateway.post(validTransaction(), { "X-Api-Key": org.apiKey });
    const [message] = await topic.pull(1);
    expect(message?.attributes).toEqual({ organization_id: org.organizationId, schema_version: "1" });
    expect(lineOf(response)?.fields?.trace).toBeUndefined();
    const deps = workerDeps();
    await handleMessage(deps, pushEvent(envelope(org.organizationId, validTransaction())));
    expect(deps.logger.lines[0]?.fields?.trace).toBeUndefined();
  });

  it("takes the client address from the last X-Forwarded-For hop, the one Cloud Run appends", async () => {
    const response = await fetch(`${gateway.baseUrl}/health`, {
      headers: { "X-Forwarded-For": "6.6.6.6, 203.0.113.9" },
    });
    expect(response.status).toBe(200);
    expect(lineOf(response)?.fields?.httpRequest).toMatchObject({ remoteIp: "203.0.113.9" });
  });
});

describe("a request the client abandons", () => {
  /** Never answers; says when the request got as far as publishing, so the client leaves at that point. */
  function hangingUntilPublishing() {
    let reached = () => {};
    const publishing = new Promise<void>((resolve) => {
      reached = resolve;
    });
    return { publisher: hangingPublisher(() => reached()), publishing };
  }

  it("still gets its one request line, as status 499 and aborted", async () => {
    const topic = await pullableTopic();
    const hanging = hangingUntilPublishing();
    const gateway = await startTestGateway({
      topicName: topic.topicName,
      publisher: hanging.publisher,
      publishTimeoutMs: 2_000,
    });
    const org = await seedOrganization();
    try {
      const controller = new AbortController();
      const sent = fetch(`${gateway.baseUrl}/usage/transactions`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-Api-Key": org.apiKey, traceparent: TRACEPARENT },
        body: JSON.stringify(validTransaction()),
        signal: controller.signal,
      });
      await hanging.publishing;
      controller.abort();
      await expect(sent).rejects.toThrow();
      await expect
        .poll(() => gateway.logger.lines.filter((line) => line.fields?.status === 499), { timeout: 5_000 })
        .toHaveLength(1);
      const line = gateway.logger.lines.find((entry) => entry.fields?.status === 499);
      expect(line).toMatchObject({
        severity: "WARNING",
        message: "POST /usage/transactions 499 aborted by the client",
        fields: { aborted: true, organization_id: org.organizationId, trace: TRACE },
      });
      // The publish bound passes; the answer has nowhere to go, and no second line is written.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(gateway.logger.lines.filter((entry) => entry.message.startsWith("POST"))).toHaveLength(1);
    } finally {
      await gateway.close();
    }
  });
});
