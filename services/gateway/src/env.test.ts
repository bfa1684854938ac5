import { DEVELOPMENT_PAGE_TOKEN_KEY } from "@usage-ingestion/records";
import { ConfigError } from "@usage-ingestion/shared/server";
import { describe, expect, it } from "vitest";
import { pageTokenKey, parseGatewayConfig } from "./env.ts";

describe("gateway configuration", () => {
  it("has defaults for everything", () => {
    expect(parseGatewayConfig({})).toMatchObject({
      PORT: 8080,
      PUBSUB_TOPIC: "usage-transactions",
      PUBLISH_TIMEOUT_MS: 10_000,
      KEY_LOOKUP_TIMEOUT_MS: 5_000,
      KEY_CACHE_TTL_MS: 10_000,
    });
  });

  it("stops on a bad value, naming the variable", () => {
    expect(() => parseGatewayConfig({ PUBLISH_TIMEOUT_MS: "soon" })).toThrow(ConfigError);
    expect(() => parseGatewayConfig({ PUBLISH_TIMEOUT_MS: "soon" })).toThrow(/PUBLISH_TIMEOUT_MS/);
  });
});

describe("the records page token key", () => {
  it("is the development key unless PAGE_TOKEN_KEY is set", () => {
    expect(pageTokenKey(parseGatewayConfig({}))).toBe(DEVELOPMENT_PAGE_TOKEN_KEY);
    const key = "c2VjcmV0IG9mIHRoaXJ0eS10d28gYnl0ZXMgb3IgbW9yZQ==";
    expect(pageTokenKey(parseGatewayConfig({ PAGE_TOKEN_KEY: key }))).toBe(key);
  });

  it("stops on a key shorter than 32 bytes, naming the variable but never its value", () => {
    expect(() => parseGatewayConfig({ PAGE_TOKEN_KEY: "hunter2" })).toThrow(ConfigError);
    expect(() => parseGatewayConfig({ PAGE_TOKEN_KEY: "hunter2" })).toThrow(/PAGE_TOKEN_KEY must be at least 32 bytes/);
    expect(() => parseGatewayConfig({ PAGE_TOKEN_KEY: "hunter2" })).not.toThrow(/hunter2/);
  });
});

describe("reports at once", () => {
  it("leaves one organization fewer slots than the instance has, or the gateway does not start", () => {
    expect(parseGatewayConfig({}).REPORTS_AT_ONCE_PER_ORGANIZATION).toBeLessThan(
      parseGatewayConfig({}).REPORTS_AT_ONCE_PER_INSTANCE,
    );
    expect(() => parseGatewayConfig({ REPORTS_AT_ONCE_PER_ORGANIZATION: "8" })).toThrow(
      /REPORTS_AT_ONCE_PER_ORGANIZATION \(8\) must be below REPORTS_AT_ONCE_PER_INSTANCE \(8\)/,
    );
  });
});

describe("the gateway's role", () => {
  it("is both by default, and ingest or reports when told", () => {
    expect(parseGatewayConfig({}).GATEWAY_ROLE).toBe("both");
    expect(parseGatewayConfig({ GATEWAY_ROLE: "ingest" }).GATEWAY_ROLE).toBe("ingest");
    expect(parseGatewayConfig({ GATEWAY_ROLE: "reports" }).GATEWAY_ROLE).toBe("reports");
    expect(() => parseGatewayConfig({ GATEWAY_ROLE: "reader" })).toThrow(/GATEWAY_ROLE/);
  });
});

describe("the Google endpoints and transports, checked at start-up", () => {
  it("publishes on our own call by default, on the Pub/Sub client when told, and nothing else", () => {
    expect(parseGatewayConfig({}).PUBSUB_PUBLISH_TRANSPORT).toBe("wire");
    expect(parseGatewayConfig({ PUBSUB_PUBLISH_TRANSPORT: "client" }).PUBSUB_PUBLISH_TRANSPORT).toBe("client");
    expect(() => parseGatewayConfig({ PUBSUB_PUBLISH_TRANSPORT: "grpc" })).toThrow(/PUBSUB_PUBLISH_TRANSPORT/);
  });

  it("takes GOOGLE_CLOUD_UNIVERSE_DOMAIN only as a domain", () => {
    expect(parseGatewayConfig({}).GOOGLE_CLOUD_UNIVERSE_DOMAIN).toBeUndefined();
    expect(parseGatewayConfig({ GOOGLE_CLOUD_UNIVERSE_DOMAIN: "example.cloud" }).GOOGLE_CLOUD_UNIVERSE_DOMAIN).toBe(
      "example.cloud",
    );
    for (const bad of ["https://googleapis.com", "googleapis.com/x", "", "localhost"]) {
      expect(() => parseGatewayConfig({ GOOGLE_CLOUD_UNIVERSE_DOMAIN: bad })).toThrow(/GOOGLE_CLOUD_UNIVERSE_DOMAIN/);
    }
  });
});
