import { validateTransaction } from "@usage-ingestion/shared";
import { afterAll, describe, expect, it, vi } from "vitest";
import { MOVING_ALIASES as OLD_ALIASES } from "./table/aliases-table.ts";
import { ANTHROPIC } from "./table/anthropic.ts";
import { BEDROCK } from "./table/bedrock.ts";
import { DEEPSEEK } from "./table/deepseek.ts";
import { GEMINI } from "./table/gemini.ts";
import { OPENAI } from "./table/openai.ts";
import type { VendorTable } from "./table/types.ts";
import { XAI } from "./table/xai.ts";

/**
 * The move of the price table from TypeScript to data files: every transaction below is priced with the old
 * TypeScript table and with the data files, and the two results (status, reason, every line item and its
 * source) must be the same.
 */
const OLD: VendorTable[] = [OPENAI, ANTHROPIC, BEDROCK, GEMINI, XAI, DEEPSEEK];

/** Concrete ids for the table's family patterns (`gemini-3*`, `*`). */
const FOR_PATTERN: Record<string, string[]> = {
  openai: ["gpt-4o", "gpt-5.5", "o4-mini"],
  anthropic: ["claude-sonnet-4-5", "claude-opus-4-6"],
  gemini: ["gemini-2.5-flash", "gemini-3.1-pro-preview", "gemini-3.5-flash"],
  xai: ["grok-4.3", "grok-4"],
  bedrock: ["us.anthropic.claude-sonnet-4-5-20250929-v1:0"],
  deepseek: ["deepseek-chat"],
};

function transactions() {
  const out: Array<{ at: Date; request: Record<string, unknown> }> = [];
  for (const vendor of OLD) {
    const provider = vendor.tokens[0]?.provider ?? vendor.units[0]?.provider ?? "openai";
    const models = new Set<string>(FOR_PATTERN[provider]);
    const dates = new Set<string>(["2025-06-01T12:00:00Z", "2026-11-25T02:30:00Z", "2026-11-28T17:00:00Z"]);
    const tiers = new Set<string | undefined>([undefined]);
    for (const row of [...vendor.tokens, ...vendor.tiers]) {
      for (const model of row.models) if (!model.includes("*")) models.add(model);
      dates.add(row.effectiveFrom);
      if (row.until) dates.add(row.until);
      if ("tier" in row && row.tier) tiers.add(row.tier);
    }
    for (const unit of vendor.units) {
      if (!unit.model.includes("*")) models.add(unit.model);
      dates.add(unit.effectiveFrom);
    }
    for (const alias of OLD_ALIASES.filter((entry) => entry.provider === provider)) models.add(alias.alias);
    const usages = [
      [
        {
          type: "tokens",
          metrics: {
            input_tokens: 20_000,
            cached_tokens: 5000,
            cache_read_input_tokens: 3000,
            cache_creation_input_tokens: 2000,
            output_tokens: 4000,
            audio_tokens: 100,
            total_tokens: 1,
          },
        },
      ],
      [{ type: "tokens", metrics: { input_tokens: 300_000, output_tokens: 1000, total_tokens: 1 } }],
      [{ type: "images", metrics: { generated: 2, quality: "high", size_px: 1024 } }],
      [{ type: "audio", metrics: { seconds: 90 } }],
      [{ type: "video", metrics: { seconds: 8 } }],
      [{ type: "requests", metrics: { count: 3, request_type: "web_search" } }],
      [{ type: "requests", metrics: { count: 2, request_type: "google_grounding" } }],
    ];
    for (const model of models)
      for (const date of dates)
        for (const tier of tiers)
          for (const usage of usages) {
            const at = new Date(date);
            if (Number.isNaN(at.getTime())) continue;
            out.push({
              at,
              request: {
                provider,
                model,
                ...(tier ? { model_tier: tier } : {}),
                usage,
                context: { billable_customer_id: "c" },
              },
            });
          }
  }
  return out;
}

async function priceAll(vendors: unknown, aliases: unknown) {
  vi.resetModules();
  if (vendors) vi.doMock("./table/vendors.ts", () => ({ VENDORS: vendors, MOVING_ALIASES: aliases }));
  else vi.doUnmock("./table/vendors.ts");
  const { priceAt } = await import("./price-usage.ts");
  return CASES.map(({ at, request }) => {
    const validated = validateTransaction(request);
    if (!validated.ok) return `invalid: ${JSON.stringify(validated.errors)}`;
    return JSON.stringify(priceAt(validated.transaction, at, null).pricing, (_key, value) =>
      typeof value === "bigint" ? value.toString() : value,
    );
  });
}

const CASES = transactions();

describe("the price table as data files prices every transaction as the TypeScript table did", () => {
  afterAll(() => vi.doUnmock("./table/vendors.ts"));

  it("over a broad set of models, dates, tiers and usage types", async () => {
    const before = await priceAll(
      OLD.map((vendor) => ({ ...vendor, aliases: [] })),
      OLD_ALIASES,
    );
    const after = await priceAll(undefined, undefined);
    expect(CASES.length).toBeGreaterThan(5000);
    const priced = before.filter((result) => result.includes('"status":"priced"')).length;
    expect(priced).toBeGreaterThan(1000);
    const differing = CASES.flatMap((c, i) =>
      before[i] === after[i] ? [] : [`${JSON.stringify(c)}: ${before[i]} / ${after[i]}`],
    );
    expect(differing.slice(0, 5)).toEqual([]);
    console.log(`${CASES.length} transactions, ${priced} priced, ${differing.length} differing`);
  }, 600_000);
});
