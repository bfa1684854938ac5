import { priceAt, pricingFields } from "@usage-ingestion/prices";
import { nanosToUsd, validateTransaction } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { ORACLE_CASES } from "./cases/index.ts";

const nanosOf = (usd: string) => {
  const [whole = "0", fraction = ""] = usd.split(".");
  return Number(BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0")));
};

describe("the oracle: hand-worked costs, priced in-process", () => {
  it("holds at least 40 cases, each with a distinct id and an exact nine-place cost", () => {
    expect(ORACLE_CASES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(ORACLE_CASES.map((c) => c.id)).size).toBe(ORACLE_CASES.length);
    for (const c of ORACLE_CASES) expect(nanosToUsd(BigInt(nanosOf(c.expectedCostUsd)))).toBe(c.expectedCostUsd);
  });

  it.each(ORACLE_CASES.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const validated = validateTransaction(c.request);
    if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
    const fields = pricingFields(priceAt(validated.transaction, new Date(c.receivedAt), null));
    expect(fields.unpriced_reason).toBeNull();
    expect(fields.cost_nanos).toBe(nanosOf(c.expectedCostUsd));
    expect(fields.cost_usd).toBe(c.expectedCostUsd);
  });
});
