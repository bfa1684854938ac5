import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_RESPONSE_BYTES, postWebhook } from "./post-webhook.ts";

// One POST to a real receiver on loopback: what counts as delivered, and every bound.
let server: Server | undefined;
async function receiver(handle: Parameters<typeof createServer>[1]) {
  server = createServer(handle);
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}
async function stop() {
  const running = server;
  server = undefined;
  if (!running) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
}
afterEach(stop);

describe("postWebhook", () => {
  it("posts the body with the headers; a 2xx is delivered", async () => {
    let seen: { body: string; signature?: string; type?: string } | undefined;
    const url = await receiver((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        seen = {
          body,
          signature: request.headers["webhook-signature"] as string,
          type: request.headers["content-type"],
        };
        response.writeHead(202).end("thanks");
      });
    });
    const outcome = await postWebhook(url, '{"a":1}', { "webhook-signature": "v1,abc" }, 2_000);
    expect(outcome).toMatchObject({ ok: true, statusCode: 202, error: null, responseExcerpt: "thanks" });
    expect(seen).toEqual({ body: '{"a":1}', signature: "v1,abc", type: "application/json" });
  });

  it("fails on a 5xx, and on a redirect, which it does not follow", async () => {
    const url = await receiver((request, response) => {
      if (request.url === "/hook") response.writeHead(307, { location: "/elsewhere" }).end();
      else response.writeHead(500).end("down");
    });
    expect(await postWebhook(url, "{}", {}, 2_000)).toMatchObject({ ok: false, statusCode: 307, error: "HTTP 307" });
    expect(await postWebhook(url.replace("/hook", "/x"), "{}", {}, 2_000)).toMatchObject({
      ok: false,
      statusCode: 500,
      error: "HTTP 500",
      responseExcerpt: "down",
    });
  });

  it("keeps the first 1024 bytes of a large answer without reading it all", async () => {
    const url = await receiver((_, response) => {
      response.writeHead(200);
      const chunk = "x".repeat(64 * 1024);
      const write = () => {
        while (response.write(chunk)) {}
        response.once("drain", write);
      };
      write();
    });
    const outcome = await postWebhook(url, "{}", {}, 2_000);
    expect(outcome.ok).toBe(true);
    expect(outcome.responseExcerpt).toHaveLength(MAX_RESPONSE_BYTES);
    expect(outcome.durationMs).toBeLessThan(2_000);
  });

  it("gives up after the time-out, and names a refused connection", async () => {
    const url = await receiver(() => undefined); // never answers
    const outcome = await postWebhook(url, "{}", {}, 300);
    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: "no answer within 300 ms" });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    expect(outcome.durationMs).toBeLessThan(2_000);
    await stop();
    expect(await postWebhook(url, "{}", {}, 2_000)).toMatchObject({
      ok: false,
      statusCode: null,
      error: "ECONNREFUSED",
    });
  });
});
