import { findProvider } from "@pydantic/genai-prices";
import { describe, expect, it } from "vitest";
import { CATALOG_PROVIDER_IDS, catalogModel, lookUpCatalog } from "./catalog.ts";

const PROVIDERS = Object.keys(CATALOG_PROVIDER_IDS) as Array<keyof typeof CATALOG_PROVIDER_IDS>;
/** Before and after the catalog's start dates, and inside and outside DeepSeek's off-peak hours (UTC). */
const TIMES = ["2024-01-01T03:00:00Z", "2025-09-01T17:30:00Z", "2026-11-23T01:00:00Z", "2030-01-01T12:00:00Z"].map(
  (time) => new Date(time),
);

describe("remembered catalog look-ups", () => {
  it("read what a fresh look-up reads, for every model of every provider at every time", () => {
    let conditional = 0;
    for (const provider of PROVIDERS) {
      const models = findProvider({ providerId: CATALOG_PROVIDER_IDS[provider] })?.models ?? [];
      expect(models.length).toBeGreaterThan(0);
      for (const { id, prices } of models) {
        if (Array.isArray(prices)) conditional++;
        // Each time in turn comes first, so a look-up remembered at one time is read at the others.
        for (const first of TIMES) {
          catalogModel(provider, id, first);
          for (const at of TIMES)
            expect(catalogModel(provider, id, at), `${provider} ${id} ${at.toISOString()}`).toEqual(
              lookUpCatalog(provider, id, at).result,
            );
        }
      }
    }
    // The catalog has models whose prices change with the date or the time of day: they were checked too.
    expect(conditional).toBeGreaterThan(0);
  });

  it("reads the same for a name the catalog does not know, remembered or not", () => {
    expect(catalogModel("openai", "no-such-model-anywhere", TIMES[0] as Date)).toBeNull();
    expect(catalogModel("openai", "no-such-model-anywhere", TIMES[1] as Date)).toBeNull();
  });

  it("cannot be changed by one transaction for the next", () => {
    const found = catalogModel("openai", "gpt-4o", TIMES[2] as Date);
    expect(found).not.toBeNull();
    expect(() => {
      (found as { modelId: string }).modelId = "changed";
    }).toThrow(TypeError);
    const rates = Object.values(found?.tokens ?? {});
    expect(rates.length).toBeGreaterThan(0);
    for (const rate of rates) expect(Object.isFrozen(rate)).toBe(true);
  });
});
