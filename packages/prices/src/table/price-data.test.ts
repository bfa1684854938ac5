import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { toJsonSchema } from "@valibot/to-json-schema";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { loadPriceData } from "./load-price-data.ts";
import { PriceDataSchema } from "./price-data-schema.ts";

const DIR = join(dirname(fileURLToPath(import.meta.url)), "providers");
const read = (file: string) => JSON.parse(readFileSync(join(DIR, file), "utf8")) as Record<string, unknown>;
const FILES = readdirSync(DIR).filter((file) => file.endsWith(".json") && !file.startsWith("."));
const SCHEMA = read(".schema.json");

describe("the price data files", () => {
  it("are one per vendor", () => {
    expect(FILES.sort()).toEqual([
      "anthropic.json",
      "bedrock.json",
      "deepseek.json",
      "gemini.json",
      "openai.json",
      "xai.json",
    ]);
  });

  it("have a JSON Schema generated from the one the loader checks", () => {
    expect(SCHEMA).toEqual(JSON.parse(JSON.stringify(toJsonSchema(PriceDataSchema))));
  });

  it.each(FILES)("%s matches the JSON Schema and names its vendor", (file) => {
    const validate = new Ajv({ allErrors: true }).compile(SCHEMA);
    const data = read(file);
    expect(validate(data) ? [] : validate.errors).toEqual([]);
    expect(`${data.provider}.json`).toBe(file);
  });

  it.each(FILES)("%s: every row that prices something names the page and when it was read", (file) => {
    const data = read(file) as { tokens: Array<{ unpriced?: string; source: { read?: string } }> };
    const rows = [
      ...data.tokens.filter((row) => row.unpriced === undefined),
      ...((read(file).tiers ?? []) as Array<{ source: { read?: string } }>),
      ...((read(file).units ?? []) as Array<{ source: { read?: string } }>),
    ];
    expect(rows.filter((row) => !row.source.read)).toEqual([]);
  });
});

describe("loading price data", () => {
  const row = {
    models: ["m"],
    effective_from: "2026-01-01",
    source: { page: "https://example.com/pricing", read: "2026-01-02" },
    prices: { input_mtok: "1" },
  };
  const file = (tokens: unknown[]) => ({ provider: "openai", aliases: [], tokens, tiers: [], units: [] });

  it("gives each row its vendor, the catalog's keys and its source with the date read", () => {
    expect(loadPriceData("t.json", file([row])).tokens).toEqual([
      {
        provider: "openai",
        models: ["m"],
        effectiveFrom: "2026-01-01",
        source: "https://example.com/pricing (read 2026-01-02)",
        rates: { input_mtok: "1" },
      },
    ]);
  });

  it.each<[string, unknown, RegExp]>([
    ["a misspelt price key", { ...row, prices: { input_mtk: "1" } }, /tokens\.0\.prices\.input_mtk/],
    ["a price as a float", { ...row, prices: { input_mtok: 1.5 } }, /tokens\.0\.prices\.input_mtok/],
    ["a row without a source", { ...row, source: undefined }, /tokens\.0\.source/],
    ["a bad date", { ...row, effective_from: "yesterday" }, /tokens\.0\.effective_from: must be an ISO date/],
  ])("refuses %s, naming the file and the place", (_name, bad, place) => {
    expect(() => loadPriceData("providers/t.json", file([bad]))).toThrow(
      /^price data providers\/t\.json does not match/,
    );
    expect(() => loadPriceData("providers/t.json", file([bad]))).toThrow(place);
  });
});
