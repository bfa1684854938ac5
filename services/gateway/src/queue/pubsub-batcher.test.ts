import { PubSub } from "@google-cloud/pubsub";
import { OAuth2Client } from "google-auth-library";
import { describe, expect, it } from "vitest";
import { publisherChannelOptions } from "./pubsub-batcher.ts";

const channelFor = async (pubsub: PubSub) => publisherChannelOptions(pubsub, await pubsub.getClientConfig());

describe("where the gateway's publish calls go", () => {
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

  it("goes to an emulator in plaintext and without credentials", async () => {
    const options = await channelFor(new PubSub({ projectId: "p", apiEndpoint: "localhost:8085" }));
    expect(options).toEqual({ origin: "http://localhost:8085" });
  });
});
