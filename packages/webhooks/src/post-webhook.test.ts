import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_RESPONSE_BYTES, postWebhook as postTo } from "./post-webhook.ts";

// The receivers here are on this machine, as on the local stack: any address allowed but where a test says.
const postWebhook = (url: string, body: string, headers: Record<string, string>, timeoutMs: number) =>
  postTo(url, body, headers, timeoutMs, "any");

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

  it("connects only to public addresses unless told otherwise, by name or by number", async () => {
    let posts = 0;
    const url = await receiver((_, response) => {
      posts += 1;
      response.writeHead(200).end();
    });
    const byName = url.replace("127.0.0.1", "localhost");
    for (const target of [url, byName]) {
      const outcome = await postTo(target, "{}", {}, 2_000);
      expect(outcome).toMatchObject({ ok: false, statusCode: null });
      expect(outcome.error).toMatch(/^refused: .*127\.0\.0\.1|^refused: .*::1/);
    }
    // The metadata server, and a benchmarking network.
    for (const target of ["https://169.254.169.254/computeMetadata/v1/", "http://198.18.0.1/hook"]) {
      expect(await postTo(target, "{}", {}, 2_000)).toMatchObject({
        ok: false,
        error: expect.stringMatching(
          /^refused: the receiver's address (169\.254\.169\.254|198\.18\.0\.1) is not public/,
        ),
      });
    }
    expect(posts).toBe(0);
    expect(await postTo(byName, "{}", {}, 2_000, "any")).toMatchObject({ ok: true, statusCode: 200 });
    expect(posts).toBe(1);
  });
});
