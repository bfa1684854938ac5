import { describe, expect, it } from "vitest";
import { validTransaction } from "../setup/fixtures.ts";
import { gatewayOnEmulators } from "../setup/gateway.ts";

const setup = gatewayOnEmulators();
const API_POLICY = "default-src 'none';frame-ancestors 'none'";

/** Every kind of answer: accepted, refused, not found, wrong method, reports as JSON and CSV, documents. */
const answers: Array<[string, () => Promise<Response>]> = [
  ["202", () => setup.gateway.post(validTransaction(), { "X-Api-Key": setup.org.apiKey })],
  ["400", () => setup.gateway.post("{", { "X-Api-Key": setup.org.apiKey })],
  ["401", () => setup.gateway.post(validTransaction())],
  ["404", () => fetch(`${setup.gateway.baseUrl}/nowhere`)],
  ["405", () => fetch(`${setup.gateway.baseUrl}/usage/transactions`)],
  ["costs JSON", () => read("/usage/costs")],
  ["costs CSV", () => read("/usage/costs?format=csv")],
  ["unpriced", () => read("/usage/unpriced")],
  ["openapi", () => fetch(`${setup.gateway.baseUrl}/openapi.json`)],
  ["health", () => fetch(`${setup.gateway.baseUrl}/health`)],
  ["healthz", () => fetch(`${setup.gateway.baseUrl}/healthz`)],
];
const read = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${setup.gateway.baseUrl}${path}`, { headers: { "x-api-key": setup.org.readKey, ...headers } });

describe("security headers on every answer", () => {
  for (const [name, answer] of answers) {
    it(`${name}: nosniff, a policy that loads nothing, no referrer, no HSTS over HTTP`, async () => {
      const response = await answer();
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-security-policy")).toBe(API_POLICY);
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      expect(response.headers.get("strict-transport-security")).toBeNull();
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    });
  }

  it("adds Strict-Transport-Security when served over HTTPS (Cloud Run's front end says so)", async () => {
    const response = await read("/usage/costs", { "x-forwarded-proto": "https" });
    expect(response.status).toBe(200);
    expect(response.headers.get("strict-transport-security")).toMatch(/^max-age=\d+; includeSubDomains$/);
  });

  it("lets the dashboard keep its own policy", async () => {
    const response = await fetch(`${setup.gateway.baseUrl}/dashboard`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
