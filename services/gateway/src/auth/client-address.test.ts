import { once } from "node:events";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { parseGatewayConfig, rateLimitConfig } from "../env.ts";
import { startTestGateway, type TestGateway } from "../testing/gateway-harness.ts";

// The client's address behind a load balancer: a real HTTP proxy in front of the gateway does what Google's
// external load balancer does (https://cloud.google.com/load-balancing/docs/https#x-forwarded-for_header):
// it appends the address the client connected from and then its own to X-Forwarded-For. Clients connect
// from addresses of their own on the loopback network (127.0.0.2, 127.0.0.3), as clients behind one load
// balancer come from different places.

const LOAD_BALANCER_ADDRESS = "203.0.113.7";
const UNKNOWN_KEYS_PER_MINUTE = 3;

let gateway: TestGateway | undefined;
let proxy: Server | undefined;
afterEach(async () => {
  proxy?.closeAllConnections();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  await gateway?.close();
  gateway = undefined;
  proxy = undefined;
});

/** The load balancer: forwards each request to the gateway with X-Forwarded-For as Google's sets it. */
async function loadBalancer(target: URL): Promise<number> {
  proxy = createServer((incoming, outgoing) => {
    const supplied = incoming.headers["x-forwarded-for"];
    const forwarded = [...(supplied ? [supplied] : []), incoming.socket.remoteAddress, LOAD_BALANCER_ADDRESS];
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, "x-forwarded-for": forwarded.join(", ") },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(upstream);
  });
  proxy.listen(0, "127.0.0.1");
  await once(proxy, "listening");
  return (proxy.address() as AddressInfo).port;
}

/** POST /usage/transactions through the load balancer, from `from`, with `key` (and any X-Forwarded-For). */
function send(port: number, from: string, key: string, forwardedFor?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ provider: "openai", model: "gpt-4o", usage: [] });
    const sent = request(
      {
        host: "127.0.0.1",
        port,
        localAddress: from,
        method: "POST",
        path: "/usage/transactions",
        headers: {
          "content-type": "application/json",
          "x-api-key": key,
          ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}),
        },
        agent: false,
      },
      (answer) => {
        answer.resume();
        answer.once("end", () => resolve(answer.statusCode ?? 0));
      },
    );
    sent.once("error", reject);
    sent.end(body);
  });
}

async function behindLoadBalancer(trustProxyHops: number) {
  const limits = rateLimitConfig(
    parseGatewayConfig({ RATE_LIMIT_UNKNOWN_KEYS_PER_MINUTE: String(UNKNOWN_KEYS_PER_MINUTE) }),
  );
  gateway = await startTestGateway({ trustProxyHops, rateLimits: limits });
  return loadBalancer(new URL(gateway.baseUrl));
}

const junk = (index: number) => `usk_junk_${index}_${Math.random().toString(36).slice(2)}`;

describe("the client's address behind the edge load balancer (TRUST_PROXY_HOPS=2)", () => {
  it("counts unknown keys per client, so one client's junk never refuses another's keys", async () => {
    const port = await behindLoadBalancer(2);
    for (let index = 0; index < UNKNOWN_KEYS_PER_MINUTE; index++) {
      expect(await send(port, "127.0.0.2", junk(index))).toBe(401);
    }
    expect(await send(port, "127.0.0.2", junk(99))).toBe(429);
    // Writing its own X-Forwarded-For does not make it another client: those hops are not trusted.
    expect(await send(port, "127.0.0.2", junk(100), "198.51.100.1")).toBe(429);
    expect(await send(port, "127.0.0.2", junk(101), "198.51.100.2, 198.51.100.3")).toBe(429);
    // Another client behind the same load balancer: its keys are looked up.
    expect(await send(port, "127.0.0.3", junk(200))).toBe(401);
    const other = (gateway as TestGateway).keys.organization();
    expect([400, 202]).toContain(await send(port, "127.0.0.3", other.ingestKey));
  });
});

describe("the client's address with one trusted hop behind the load balancer (the setting before)", () => {
  it("takes the load balancer's own address for every client, so one client's junk refuses all", async () => {
    const port = await behindLoadBalancer(1);
    for (let index = 0; index < UNKNOWN_KEYS_PER_MINUTE; index++) {
      expect(await send(port, "127.0.0.2", junk(index))).toBe(401);
    }
    expect(await send(port, "127.0.0.3", junk(200))).toBe(429);
  });
});
