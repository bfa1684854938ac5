import { describe, expect, it } from "vitest";
import { reconcileVendors } from "./reconcile-vendors.ts";

describe("the reconciliation job's configuration, checked at start-up", () => {
  it("reads each vendor's address, with the vendors' own as defaults", () => {
    const config = reconcileVendors.config({});
    expect(config.RECONCILE_OPENAI_BASE_URL).toBe("https://api.openai.com");
    expect(config.RECONCILE_ANTHROPIC_BASE_URL).toBe("https://api.anthropic.com");
    expect(config.RECONCILE_BIGQUERY_ENDPOINT).toBe("https://bigquery.googleapis.com");
    expect(config.RECONCILE_AWS_ENDPOINT).toBe("https://ce.us-east-1.amazonaws.com");
    expect(config.RECONCILE_LOOKBACK_DAYS).toBe(7);
    const proxied = reconcileVendors.config({ RECONCILE_ANTHROPIC_BASE_URL: "http://127.0.0.1:8099/anthropic" });
    expect(proxied.RECONCILE_ANTHROPIC_BASE_URL).toBe("http://127.0.0.1:8099/anthropic");
  });

  it("stops on an address that is not one, a look-back past a month, or a malformed key, naming the variable", () => {
    expect(() => reconcileVendors.config({ RECONCILE_OPENAI_BASE_URL: "api.openai.com" })).toThrow(
      /RECONCILE_OPENAI_BASE_URL/,
    );
    expect(() => reconcileVendors.config({ RECONCILE_ANTHROPIC_BASE_URL: "https://u:p@proxy.example" })).toThrow(
      /RECONCILE_ANTHROPIC_BASE_URL/,
    );
    expect(() => reconcileVendors.config({ RECONCILE_BIGQUERY_ENDPOINT: "bigquery" })).toThrow(
      /RECONCILE_BIGQUERY_ENDPOINT/,
    );
    expect(() => reconcileVendors.config({ RECONCILE_AWS_ENDPOINT: "ce.us-east-1" })).toThrow(/RECONCILE_AWS_ENDPOINT/);
    expect(() => reconcileVendors.config({ RECONCILE_LOOKBACK_DAYS: "60" })).toThrow(/RECONCILE_LOOKBACK_DAYS/);
    expect(() => reconcileVendors.config({ WEBHOOK_SECRET_KEY: "short" })).toThrow();
  });
});
