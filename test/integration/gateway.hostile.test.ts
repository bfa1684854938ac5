import { connect } from "node:net";
import { setDimensions } from "@usage-ingestion/organizations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validTransaction } from "../setup/fixtures.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { firestore, pullableTopic, seedOrganization } from "../setup/harness.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Writes raw bytes to the server and reads the whole answer: what a broken client would get. */
function rawRequest(baseUrl: string, text: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("utf8");
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

const parseRaw = (answer: string) => {
  const [head = "", body = ""] = answer.split("\r\n\r\n");
  const [statusLine = "", ...headerLines] = head.split("\r\n");
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(":")).toLowerCase(),
      line.slice(line.indexOf(":") + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(" ")[1]), headers, body: JSON.parse(body) };
};

describe("POST /usage/transactions: hostile input", () => {
  let org: Awaited<ReturnType<typeof seedOrganization>>;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;

  beforeAll(async () => {
    org = await seedOrganization();
    // Read with the key, so declared before the key is first used.
    await setDimensions(firestore(), org.organizationId, ["feature"]);
    gateway = await startTestGateway({ topicName: (await pullableTopic()).topicName });
  });
  afterAll(() => gateway?.close());

  it("answers a body nested thousands of levels deep with 400 too_large at the path, never 500", async () => {
    const deep = `{"provider":"openai","context":{"billable_customer_id":"c","x":${"[".repeat(5000)}${"]".repeat(5000)}}}`;
    const response = await gateway.post(deep, { "X-Api-Key": org.apiKey });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe("validation_error");
    expect(body.error.details).toHaveLength(1);
    expect(body.error.details[0]).toMatchObject({ code: "too_large" });
    expect(body.error.details[0].field).toMatch(/^context\.x(\.0)+$/);
    expect(body.error.details[0].field.split(".")).toHaveLength(64);
  });

  it("refuses a lone surrogate where it identifies the transaction, and queues it elsewhere", async () => {
    const refused = await gateway.post('{"provider":"openai","model":"gpt-4o\\ud800","usage":[],"context":{}}', {
      "X-Api-Key": org.apiKey,
    });
    expect(refused.status).toBe(400);
    const { error } = await refused.json();
    expect(error.details).toContainEqual(expect.objectContaining({ field: "model", code: "invalid_format" }));

    const body = JSON.stringify(validTransaction({ context: { billable_customer_id: "c", note: "x" } })).replace(
      '"note":"x"',
      '"note":"\\udc00"',
    );
    expect((await gateway.post(body, { "X-Api-Key": org.apiKey })).status).toBe(202);
  });

  it("refuses a 250 KB model and a context of 21,000 keys, in a bulk per transaction (207)", async () => {
    const long = validTransaction({ model: "m".repeat(250_000) });
    const wide = validTransaction({
      context: { billable_customer_id: "c", ...Object.fromEntries(Array.from({ length: 21_000 }, (_, i) => [i, 1])) },
    });
    const response = await gateway.post(JSON.stringify({ transactions: [long, wide, validTransaction()] }), {
      "X-Api-Key": org.apiKey,
    });
    expect(response.status).toBe(207);
    const body = await response.json();
    expect(body.events_queued).toBe(1);
    expect(body.results.map((r: { error?: string }) => r.error?.split(":")[0] ?? "queued")).toEqual([
      "validation failed",
      "validation failed",
      "queued",
    ]);
    expect(body.results[0].error).toContain("model must be at most 256 bytes in UTF-8");
    // 21,000 keys are past the members an object may hold at all, found before validation (and the
    // transaction is refused alone, as its field errors would refuse it).
    expect(body.results[1].error).toContain("transactions.1.context has more than 256 members");
  });

  it("refuses a declared dimension's value over 256 bytes at its field", async () => {
    const long = validTransaction({ context: { billable_customer_id: "c", feature: "f".repeat(257) } });
    const response = await gateway.post(JSON.stringify(long), { "X-Api-Key": org.apiKey });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.details).toEqual([
      {
        field: "context.feature",
        code: "too_large",
        message: "context.feature is a declared dimension of 257 bytes; it must be at most 256 bytes in UTF-8",
      },
    ]);
  });

  it("answers 64 KiB of headers with 431 in the error envelope, with a request id", async () => {
    const answer = await rawRequest(
      gateway.baseUrl,
      `POST /usage/transactions HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(64 * 1024)}\r\n\r\n`,
    );
    const { status, headers, body } = parseRaw(answer);
    expect(status).toBe(431);
    expect(headers["x-request-id"]).toMatch(UUID);
    expect(body.error).toMatchObject({ code: "validation_error", details: [{ field: "headers", code: "too_large" }] });
  });

  it("answers a malformed request line with 400 in the error envelope, with a request id", async () => {
    const { status, headers, body } = parseRaw(await rawRequest(gateway.baseUrl, "NOT A REQUEST\r\n\r\n"));
    expect(status).toBe(400);
    expect(headers["x-request-id"]).toMatch(UUID);
    expect(body.error).toMatchObject({ code: "validation_error", details: [{ field: "request" }] });
  });
});
