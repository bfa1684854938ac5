import { describe, expect, it } from "vitest";
import { parseWorkerConfig } from "./env.ts";

describe("the worker's transport and universe, checked at start-up", () => {
  it("commits on our own call by default, on the Firestore client when told, and nothing else", () => {
    expect(parseWorkerConfig({}).FIRESTORE_COMMIT_TRANSPORT).toBe("wire");
    expect(parseWorkerConfig({ FIRESTORE_COMMIT_TRANSPORT: "client" }).FIRESTORE_COMMIT_TRANSPORT).toBe("client");
    expect(() => parseWorkerConfig({ FIRESTORE_COMMIT_TRANSPORT: "rest" })).toThrow(/FIRESTORE_COMMIT_TRANSPORT/);
  });

  it("publishes records on our own call by default, on the Pub/Sub client when told, and nothing else", () => {
    expect(parseWorkerConfig({}).PUBSUB_PUBLISH_TRANSPORT).toBe("wire");
    expect(parseWorkerConfig({ PUBSUB_PUBLISH_TRANSPORT: "client" }).PUBSUB_PUBLISH_TRANSPORT).toBe("client");
    expect(() => parseWorkerConfig({ PUBSUB_PUBLISH_TRANSPORT: "grpc" })).toThrow(/PUBSUB_PUBLISH_TRANSPORT/);
  });

  it("takes GOOGLE_CLOUD_UNIVERSE_DOMAIN only as a domain", () => {
    expect(parseWorkerConfig({ GOOGLE_CLOUD_UNIVERSE_DOMAIN: "example.cloud" }).GOOGLE_CLOUD_UNIVERSE_DOMAIN).toBe(
      "example.cloud",
    );
    expect(() => parseWorkerConfig({ GOOGLE_CLOUD_UNIVERSE_DOMAIN: "https://x" })).toThrow(
      /GOOGLE_CLOUD_UNIVERSE_DOMAIN/,
    );
  });
});
