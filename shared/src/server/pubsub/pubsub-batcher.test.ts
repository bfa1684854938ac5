import http2, { type IncomingHttpHeaders } from "node:http2";
import type { AddressInfo } from "node:net";
import { PubSub } from "@google-cloud/pubsub";
import { OAuth2Client } from "google-auth-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import { closeStandIns, cuttableProxy, framed, standIn } from "../../../../test/setup/grpc-stand-in.ts";
import { PublishTimeoutError, publisherChannelOptions, pubSubBatcher } from "./pubsub-batcher.ts";

const channelFor = async (pubsub: PubSub) => publisherChannelOptions(pubsub, await pubsub.getClientConfig());

describe("where publish calls go (the gateway's and the records feed's)", () => {
  it("goes to Pub/Sub over TLS, with the PubSub client's own credentials on each call", async () => {
    const authClient = new OAuth2Client();
    authClient.setCredentials({ access_token: "token-1", expiry_date: Date.now() + 3_600_000 });
    const options = await channelFor(new PubSub({ projectId: "p", apiEndpoint: "pubsub.googleapis.com", authClient }));
    expect(options.origin).toBe("https://pubsub.googleapis.com:443");
    expect(await options.callHeaders?.()).toMatchObject({ authorization: "Bearer token-1" });
  });

  it("keeps a regional endpoint and its port", async () => {
    const pubsub = new PubSub({ projectId: "p", apiEndpoint: "europe-west1-pubsub.googleapis.com:443" });
    expect((await channelFor(pubsub)).origin).toBe("https://europe-west1-pubsub.googleapis.com:443");
  });

  it("follows a universe domain other than Google's own", async () => {
    const pubsub = new PubSub({ projectId: "p", apiEndpoint: "pubsub.googleapis.com" });
    const options = publisherChannelOptions(pubsub, { universeDomain: "example.com" });
    expect(options.origin).toBe("https://pubsub.example.com:443");
  });

  it("follows GOOGLE_CLOUD_UNIVERSE_DOMAIN when no endpoint or universe is given, as the generated client does", async () => {
    // A run with the emulators started sets PUBSUB_EMULATOR_HOST, which PubSub reads when it is made.
    vi.stubEnv("PUBSUB_EMULATOR_HOST", undefined);
    vi.stubEnv("GOOGLE_CLOUD_UNIVERSE_DOMAIN", "example.cloud");
    try {
      const pubsub = new PubSub({ projectId: "p" });
      expect((await channelFor(pubsub)).origin).toBe("https://pubsub.example.cloud:443");
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("goes to an emulator in plaintext and without credentials", async () => {
    const options = await channelFor(new PubSub({ projectId: "p", apiEndpoint: "localhost:8085" }));
    expect(options).toEqual({ origin: "http://localhost:8085" });
  });
});

describe("a publish call Pub/Sub does not answer", () => {
  // A stand-in for a Pub/Sub that takes every call and never answers: what the emulator never does.
  it("is cancelled when its request's time runs out, not a batching window later", async () => {
    const server = http2.createServer();
    const cancelledAfter: number[] = [];
    let started = 0;
    server.on("stream", (stream) => {
      stream.on("close", () => cancelledAfter.push(Date.now() - started));
      stream.on("error", () => undefined);
      stream.resume();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const batcher = pubSubBatcher(new PubSub({ projectId: "p", apiEndpoint: `127.0.0.1:${port}` }), {
      topic: "t",
      timeoutMs: 600,
      batchMaxMs: 300,
    });
    started = Date.now();
    const [outcome] = await batcher.publish([{ data: "{}", attributes: {} }]);
    expect((outcome as { error: unknown }).error).toBeInstanceOf(PublishTimeoutError);
    await expect.poll(() => cancelledAfter.length).toBe(1);
    // The call left after the 300 ms window, with the request's own deadline, 600 ms from the publish.
    expect(cancelledAfter[0]).toBeGreaterThanOrEqual(550);
    expect(cancelledAfter[0]).toBeLessThan(850);
    await batcher.close();
    await new Promise((resolve) => server.close(resolve));
  });
});

describe("a publish call whose connection is cut under it", () => {
  afterEach(closeStandIns);

  it("is retried on a new connection, and each message gets the id of the call that was answered", async () => {
    let arrived = 0;
    const headers: IncomingHttpHeaders[] = [];
    const { origin } = await standIn((stream, received) => {
      headers.push(received);
      if (++arrived === 1) return;
      stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
      stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
      // PublishResponse { message_ids: ["id-1"] }
      stream.end(framed(Buffer.from([0x0a, 4, ...Buffer.from("id-1")])));
    });
    const proxy = await cuttableProxy(origin);
    const batcher = pubSubBatcher(new PubSub({ projectId: "p", apiEndpoint: proxy.origin.slice(7) }), {
      topic: "t",
      timeoutMs: 5_000,
      batchMaxMs: 0,
    });
    const published = batcher.publish([{ data: "{}", attributes: {} }]);
    await expect.poll(() => arrived).toBe(1);
    proxy.cut();
    expect(await published).toEqual([{ id: "id-1" }]);
    expect(String(headers[1]?.["x-goog-api-client"])).toMatch(/^gl-node\/\S+ gax\/\S+ gccl\/\d+\.\d+\.\d+$/);
    expect(proxy.connections()).toBe(2);
    await batcher.close();
    await proxy.close();
  });
});
