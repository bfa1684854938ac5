import type { FieldError } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { DEVELOPMENT_PAGE_TOKEN_KEY, pageTokens } from "./records-page-token.ts";
import {
  DEFAULT_RECORDS_PER_PAGE,
  parseRecordsQuery,
  type RecordFilters,
  type RecordsQuery,
  recordsFingerprint,
} from "./records-query.ts";

const now = new Date("2026-06-15T10:30:00.000Z");
const tokens = pageTokens(DEVELOPMENT_PAGE_TOKEN_KEY);
const parse = (params: Record<string, unknown>, declared = ["feature"], organizationId = "acme") =>
  parseRecordsQuery(params, declared, now, tokens, organizationId);

const accepted = (params: Record<string, unknown>): RecordsQuery => {
  const parsed = parse(params);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.query;
};
const details = (params: Record<string, unknown>, declared?: string[]): FieldError[] => {
  const parsed = parse(params, declared);
  if (parsed.ok) throw new Error("accepted");
  return parsed.errors;
};

const tokenFor = (filters: RecordFilters, range = { from: new Date("2026-06-01"), to: new Date("2026-06-02") }) =>
  tokens.sign(
    { organizationId: "acme", filters: recordsFingerprint(filters) },
    {
      readTime: { seconds: 1_781_000_000, nanoseconds: 0 },
      ...range,
      after: { receivedAt: "2026-06-01T09:00:00.000Z", messageId: "42" },
    },
  );

describe("parseRecordsQuery", () => {
  it("defaults as /usage/costs does: to now, from 30 days before today's start, and 100 records", () => {
    expect(accepted({})).toEqual({
      from: new Date("2026-05-16T00:00:00.000Z"),
      to: now,
      filters: { dimensions: {} },
      limit: DEFAULT_RECORDS_PER_PAGE,
    });
  });

  it("takes every filter, and declared dimensions by their roll-up value", () => {
    const query = accepted({
      from: "2026-06-01",
      to: "2026-06-02T12:00:00+02:00",
      provider: "openai",
      model: "gpt-4o",
      model_tier: "batch",
      billable_customer_id: "acme-customer",
      status: "unpriced",
      "context.feature": "chat",
      limit: "1000",
    });
    expect(query).toEqual({
      from: new Date("2026-06-01T00:00:00.000Z"),
      to: new Date("2026-06-02T10:00:00.000Z"),
      filters: {
        provider: "openai",
        model: "gpt-4o",
        model_tier: "batch",
        billable_customer_id: "acme-customer",
        status: "unpriced",
        dimensions: { feature: "chat" },
      },
      limit: 1000,
    });
  });

  it("refuses unknown, repeated and out-of-bounds parameters, each by name", () => {
    expect(details({ provder: "openai" })).toEqual([
      { field: "provder", code: "invalid_value", message: "provder is not a parameter of this route" },
    ]);
    expect(details({ model: ["a", "b"] })[0]).toMatchObject({ field: "model", code: "invalid_type" });
    expect(details({ status: "billed" })[0]).toMatchObject({ field: "status", code: "invalid_value" });
    expect(details({ provider: "acme-ai" })[0]).toMatchObject({ field: "provider", code: "invalid_value" });
    expect(details({ model: "m".repeat(257) })[0]).toMatchObject({ field: "model", code: "too_large" });
    expect(details({ "context.region": "eu" })[0]).toMatchObject({ field: "context.region", code: "invalid_value" });
    expect(details({ "context.feature": "" })[0]).toMatchObject({ field: "context.feature", code: "too_small" });
    expect(details({ from: "2026-06-02", to: "2026-06-01" })[0]).toMatchObject({ field: "to", code: "invalid_value" });
    expect(details({ from: "2025-01-01", to: "2026-06-01" })[0]).toMatchObject({ field: "to", code: "too_large" });
    expect(details({ page_token: "x".repeat(2_049) })[0]).toMatchObject({ field: "page_token", code: "too_large" });
    // Several at once: every one found.
    expect(details({ provider: "x", status: "y", nope: "z" }).map((detail) => detail.field)).toEqual([
      "provider",
      "status",
      "nope",
    ]);
  });

  it("gives one error per bad limit", () => {
    expect(details({ limit: "0" })).toEqual([expect.objectContaining({ field: "limit", code: "too_small" })]);
    expect(details({ limit: "1001" })).toEqual([expect.objectContaining({ field: "limit", code: "too_large" })]);
    expect(details({ limit: "-1" })).toEqual([expect.objectContaining({ field: "limit", code: "invalid_type" })]);
    expect(details({ limit: "1e3" })).toEqual([expect.objectContaining({ field: "limit", code: "invalid_type" })]);
  });

  it("continues from a page token with the range of its first page", () => {
    const filters = { billable_customer_id: "acme-customer", dimensions: {} };
    const token = tokenFor(filters);
    const query = accepted({ billable_customer_id: "acme-customer", page_token: token });
    expect(query).toMatchObject({ from: new Date("2026-06-01"), to: new Date("2026-06-02"), filters, limit: 100 });
    expect(query.page?.after).toEqual({ receivedAt: "2026-06-01T09:00:00.000Z", messageId: "42" });
    // The same range given again is the same listing.
    const again = { billable_customer_id: "acme-customer", from: "2026-06-01", to: "2026-06-02", page_token: token };
    expect(accepted(again).page).toBeDefined();
  });

  it("refuses a page token of other filters, another range, another organization, or none of ours", () => {
    const token = tokenFor({ dimensions: { feature: "chat" } });
    const refused = { field: "page_token", code: "invalid_value" };
    expect(details({ page_token: token })).toEqual([expect.objectContaining(refused)]);
    expect(details({ page_token: token, "context.feature": "search" })).toEqual([expect.objectContaining(refused)]);
    expect(details({ page_token: token, "context.feature": "chat", to: "2026-06-03" })).toEqual([
      expect.objectContaining(refused),
    ]);
    const foreign = parse({ page_token: token, "context.feature": "chat" }, ["feature"], "globex");
    expect(foreign.ok).toBe(false);
    expect(details({ page_token: "not-a-token" })).toEqual([expect.objectContaining(refused)]);
    expect(accepted({ page_token: token, "context.feature": "chat" }).page).toBeDefined();
  });
});

describe("recordsFingerprint", () => {
  it("does not depend on the order dimensions were given in", () => {
    const a = recordsFingerprint({ dimensions: { feature: "chat", team: "core" } });
    const b = recordsFingerprint({ dimensions: { team: "core", feature: "chat" } });
    expect(a).toBe(b);
    expect(recordsFingerprint({ dimensions: { feature: "chat" } })).not.toBe(
      recordsFingerprint({ model: "chat", dimensions: {} }),
    );
  });
});
