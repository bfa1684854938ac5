import { Firestore } from "@google-cloud/firestore";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConfigError } from "../config.ts";
import { type FirestoreClientSettings, firestoreEndpoint } from "./firestore-endpoint.ts";

/**
 * Where the Firestore client itself goes with `settings`: its settings once it has applied them, read as
 * its generated client reads them (`servicePath || apiEndpoint`, else the default).
 */
function clientGoesTo(settings: FirestoreClientSettings) {
  const client = new Firestore({ projectId: "p", ...settings });
  const applied = (client as unknown as { _settings: FirestoreClientSettings })._settings;
  return {
    hostname: applied.servicePath ?? applied.apiEndpoint ?? "firestore.googleapis.com",
    port: applied.port ?? 443,
    ssl: applied.ssl,
  };
}

describe("where our Firestore commits go", () => {
  // The client reads these when it is made; a run with the emulators started sets them.
  beforeEach(() => {
    vi.stubEnv("FIRESTORE_EMULATOR_HOST", undefined);
    vi.stubEnv("GOOGLE_CLOUD_UNIVERSE_DOMAIN", undefined);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it.each<FirestoreClientSettings>([
    {},
    { host: "firestore.example.internal" },
    { host: "10.1.2.3:9443" },
    { host: "localhost:8080", ssl: false },
    { servicePath: "firestore-psc.p.googleapis.com" },
    { apiEndpoint: "nam5-firestore.googleapis.com", port: 8443 },
  ])("follows the Firestore client's own settings: %o", (settings) => {
    const client = clientGoesTo(settings);
    const scheme = client.ssl === false ? "http" : "https";
    expect(firestoreEndpoint(settings, {}).origin).toBe(`${scheme}://${client.hostname}:${client.port}`);
  });

  it("follows GOOGLE_CLOUD_UNIVERSE_DOMAIN, as the generated client does, unless an endpoint is set", () => {
    expect(firestoreEndpoint({}, { universeDomain: "example.cloud" }).origin).toBe(
      "https://firestore.example.cloud:443",
    );
    expect(firestoreEndpoint({ servicePath: "f.internal" }, { universeDomain: "example.cloud" }).origin).toBe(
      "https://f.internal:443",
    );
  });

  it("goes to FIRESTORE_EMULATOR_HOST before anything else, in plaintext", () => {
    expect(firestoreEndpoint({ host: "elsewhere" }, { emulatorHost: "127.0.0.1:8080" })).toEqual({
      origin: "http://127.0.0.1:8080",
      emulator: true,
    });
  });

  it("refuses a host that is not host[:port] at start-up, naming where it came from", () => {
    expect(() => firestoreEndpoint({}, { emulatorHost: "http://127.0.0.1:8080/x" })).toThrow(ConfigError);
    expect(() => firestoreEndpoint({}, { emulatorHost: "a b" })).toThrow(/FIRESTORE_EMULATOR_HOST/);
    expect(() => firestoreEndpoint({ host: "h/path" }, {})).toThrow(/Firestore host/);
  });
});
