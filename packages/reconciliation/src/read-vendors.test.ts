import { afterEach, describe, expect, it } from "vitest";
import {
  ANTHROPIC_PATHS,
  OPENAI_PATHS,
  type VendorStandIn,
  vendorStandIn,
} from "../../../test/setup/vendor-stand-ins.ts";
import { readAnthropic } from "./read-anthropic.ts";
import { openAiLineItem, readOpenAi } from "./read-openai.ts";
import { DAY_MS } from "./vendor-days.ts";
import { DEFAULT_VENDOR_HTTP, type VendorHttp } from "./vendor-http.ts";

const stands: VendorStandIn[] = [];
afterEach(async () => {
  await Promise.all(stands.splice(0).map((stand) => stand.close()));
});

const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
const dayBefore = (n: number) => new Date(today.getTime() - n * DAY_MS).toISOString().slice(0, 10);
const range = { from: new Date(today.getTime() - 4 * DAY_MS), to: new Date(today.getTime() + DAY_MS) };

/** The waits asked for, instead of waiting them. */
function http(): VendorHttp & { waits: number[] } {
  const waits: number[] = [];
  return {
    settings: { ...DEFAULT_VENDOR_HTTP, maxRetries: 2 },
    fetch: globalThis.fetch,
    sleep: async (ms) => {
      waits.push(ms);
    },
    waits,
  };
}

const OPENAI_KEY = "sk-admin-StandInOnlyKey0123456789";
const ANTHROPIC_KEY = "sk-ant-admin01-StandInOnlyKey0123456789";

describe("the OpenAI reader", () => {
  it("reads usage by model and costs by line item over pages, once throttled, skipping the day in progress", async () => {
    const stand = await vendorStandIn("openai", OPENAI_PATHS);
    stands.push(stand);
    // gpt-4o-mini at $0.15 per million input, $0.075 cached input, $0.60 output (openai.com/api/pricing,
    // read 2026-11-29): 1,000,000 input of which 200,000 cached and 100,000 output cost $0.12 + $0.015 + $0.06.
    const usage = (model: string) => ({
      object: "organization.usage.completions.result",
      input_tokens: 1_000_000,
      input_cached_tokens: 200_000,
      output_tokens: 100_000,
      num_model_requests: 40,
      project_id: null,
      user_id: null,
      api_key_id: null,
      model,
      batch: null,
    });
    const cost = (lineItem: string, value: number) => ({
      object: "organization.costs.result",
      amount: { value, currency: "usd" },
      line_item: lineItem,
      project_id: null,
    });
    const [usagePath, costPath] = OPENAI_PATHS as [string, string];
    stand.state.days[usagePath] = {
      [dayBefore(3)]: [usage("gpt-4o-mini-2024-07-18")],
      [dayBefore(2)]: [],
      [dayBefore(1)]: [usage("gpt-4o-mini-2024-07-18")],
    };
    stand.state.days[costPath] = {
      [dayBefore(3)]: [
        cost("gpt-4o-mini-2024-07-18, input", 0.12),
        cost("gpt-4o-mini-2024-07-18, cached input", 0.015),
        cost("gpt-4o-mini-2024-07-18, output", 0.06),
      ],
      [dayBefore(1)]: [cost("gpt-4o-mini-2024-07-18, input", 0.12), cost("gpt-4o-mini-2024-07-18, output", 0.06)],
    };
    stand.state.today = { day: today.toISOString().slice(0, 10), results: { [usagePath]: [usage("gpt-4o")] } };
    stand.state.throttle = 1;
    stand.state.retryAfter = "7";
    const client = http();
    const figures = await readOpenAi({ http: client, baseUrl: stand.baseUrl, now: new Date() }, OPENAI_KEY, range);
    expect(client.waits).toEqual([7000]);
    expect(figures).toEqual([
      {
        day: dayBefore(3),
        model: "gpt-4o-mini-2024-07-18",
        tokens: {
          input_tokens: 1_000_000,
          cached_tokens: 200_000,
          output_tokens: 100_000,
          cache_creation_input_tokens: 0,
        },
        cost_nanos: 195_000_000n,
        components: { input: 120_000_000n, cache_read: 15_000_000n, output: 60_000_000n },
      },
      {
        day: dayBefore(1),
        model: "gpt-4o-mini-2024-07-18",
        tokens: {
          input_tokens: 1_000_000,
          cached_tokens: 200_000,
          output_tokens: 100_000,
          cache_creation_input_tokens: 0,
        },
        cost_nanos: 180_000_000n,
        components: { input: 120_000_000n, output: 60_000_000n },
      },
    ]);
    const usageCalls = stand.state.requests.filter((request) => request.path === usagePath);
    // Five days at two a page: three pages, and the one throttled try.
    expect(usageCalls.length).toBe(4);
    expect(usageCalls.at(-1)?.query.get("page")).not.toBeNull();
    expect(usageCalls[0]?.query.get("bucket_width")).toBe("1d");
    expect(usageCalls[0]?.query.get("group_by")).toBe("model");
    expect(usageCalls[0]?.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
  });

  it("gives up after its retries, and its message never holds the key", async () => {
    const stand = await vendorStandIn("openai", OPENAI_PATHS);
    stands.push(stand);
    stand.state.throttle = 10;
    const client = http();
    const failure = await readOpenAi(
      { http: client, baseUrl: stand.baseUrl, now: new Date() },
      OPENAI_KEY,
      range,
    ).catch((error: Error) => error);
    expect(String(failure)).toMatch(/rate limited after 3 tries/);
    expect(String(failure)).not.toContain(OPENAI_KEY);
    expect(client.waits).toEqual([1000, 1000]);
  });

  it("refuses a wait longer than it honours, and a page past its bound", async () => {
    const stand = await vendorStandIn("openai", OPENAI_PATHS);
    stands.push(stand);
    stand.state.throttle = 1;
    stand.state.retryAfter = "3600";
    const client = http();
    await expect(
      readOpenAi({ http: client, baseUrl: stand.baseUrl, now: new Date() }, OPENAI_KEY, range),
    ).rejects.toThrow(/rate limited after 1 tries/);
    const paged = { ...client, settings: { ...client.settings, maxPages: 2 } };
    await expect(
      readOpenAi({ http: paged, baseUrl: stand.baseUrl, now: new Date() }, OPENAI_KEY, range),
    ).rejects.toThrow(/more than 2 pages/);
  });

  it("names the model and component of a line item", () => {
    expect(openAiLineItem("gpt-4o-2024-08-06, cached input")).toEqual({
      model: "gpt-4o-2024-08-06",
      component: "cache_read",
    });
    expect(openAiLineItem("o3, output")).toEqual({ model: "o3", component: "output" });
    expect(openAiLineItem("Web search tool calls")).toEqual({ model: "(not per model)" });
    expect(openAiLineItem("gpt-4o, batch input")).toEqual({ model: "gpt-4o" });
  });
});

describe("the Anthropic reader", () => {
  it("reads usage by model and the cost report by description, cents exactly, a restated day as restated", async () => {
    const stand = await vendorStandIn("anthropic", ANTHROPIC_PATHS);
    stands.push(stand);
    const [usagePath, costPath] = ANTHROPIC_PATHS as [string, string];
    const usage = (uncached: number) => ({
      api_key_id: null,
      workspace_id: null,
      model: "claude-sonnet-4-5-20250929",
      service_tier: null,
      context_window: null,
      uncached_input_tokens: uncached,
      cache_read_input_tokens: 1_000_000,
      cache_creation: { ephemeral_5m_input_tokens: 10_000, ephemeral_1h_input_tokens: 0 },
      output_tokens: 20_000,
      server_tool_use: { web_search_requests: 0 },
    });
    // Claude Sonnet 4.5 at $3 per million input, $0.30 cache reads, $3.75 five-minute cache writes, $15
    // output (platform.claude.com/docs/en/about-claude/pricing, read 2026-11-29): 100,000 uncached input
    // is 30 cents, 1,000,000 cache reads 30 cents, 10,000 cache writes 3.75 cents, 20,000 output 30 cents.
    const cost = (tokenType: string, amount: string) => ({
      currency: "USD",
      amount,
      workspace_id: null,
      description: `Claude Sonnet 4.5 Usage - ${tokenType}`,
      cost_type: "tokens",
      context_window: "0-200k",
      model: "claude-sonnet-4-5-20250929",
      service_tier: "standard",
      token_type: tokenType,
    });
    stand.state.days[usagePath] = { [dayBefore(2)]: [usage(100_000)], [dayBefore(1)]: [] };
    stand.state.days[costPath] = {
      [dayBefore(2)]: [
        cost("uncached_input_tokens", "30"),
        cost("cache_read_input_tokens", "30"),
        cost("cache_creation.ephemeral_5m_input_tokens", "3.75"),
        cost("output_tokens", "30"),
        {
          currency: "USD",
          amount: "1.00",
          cost_type: "web_search",
          model: null,
          token_type: null,
          description: "Web search",
        },
      ],
    };
    const client = http();
    const reader = { http: client, baseUrl: `${stand.baseUrl}/`, now: new Date() };
    const first = await readAnthropic(reader, ANTHROPIC_KEY, range);
    expect(first).toEqual([
      {
        day: dayBefore(2),
        model: "(not per model)",
        tokens: { input_tokens: 0, cached_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0 },
        cost_nanos: 10_000_000n,
        components: {},
      },
      {
        day: dayBefore(2),
        model: "claude-sonnet-4-5-20250929",
        tokens: {
          input_tokens: 100_000,
          cached_tokens: 1_000_000,
          output_tokens: 20_000,
          cache_creation_input_tokens: 10_000,
        },
        cost_nanos: 937_500_000n,
        components: { input: 300_000_000n, cache_read: 300_000_000n, cache_write: 37_500_000n, output: 300_000_000n },
      },
    ]);
    const sent = stand.state.requests[0];
    expect(sent?.headers["x-api-key"]).toBe(ANTHROPIC_KEY);
    expect(sent?.query.getAll("group_by[]")).toEqual(["model"]);
    // The vendor restates the day: read again, the new figures replace the old ones.
    stand.state.days[usagePath] = { [dayBefore(2)]: [usage(120_000)] };
    const again = await readAnthropic(reader, ANTHROPIC_KEY, range);
    expect(again[1]?.tokens.input_tokens).toBe(120_000);
  });

  it("refuses an answer that is not the documented report, without repeating it", async () => {
    const stand = await vendorStandIn("anthropic", ANTHROPIC_PATHS);
    stands.push(stand);
    stand.state.days[ANTHROPIC_PATHS[1] as string] = { [dayBefore(1)]: [{ amount: 12.5 }] };
    const reader = { http: http(), baseUrl: stand.baseUrl, now: new Date() };
    await expect(readAnthropic(reader, ANTHROPIC_KEY, range)).rejects.toThrow(/not the documented report/);
  });
});
