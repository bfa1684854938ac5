import { afterEach, describe, expect, it } from "vitest";
import {
  ANTHROPIC_PATHS,
  OPENAI_PATHS,
  type VendorStandIn,
  vendorStandIn,
} from "../../../test/setup/vendor-stand-ins.ts";
import { readAnthropic } from "./read-anthropic.ts";
import { readOpenAi } from "./read-openai.ts";
import { DAY_MS } from "./vendor-days.ts";
import { DEFAULT_VENDOR_HTTP, type VendorHttp } from "./vendor-http.ts";

const stands: VendorStandIn[] = [];
afterEach(async () => {
  await Promise.all(stands.splice(0).map((stand) => stand.close()));
});

const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
const day = new Date(today.getTime() - 2 * DAY_MS).toISOString().slice(0, 10);
const range = { from: new Date(today.getTime() - 3 * DAY_MS), to: new Date(today.getTime() - DAY_MS) };
const http: VendorHttp = { settings: DEFAULT_VENDOR_HTTP, fetch: globalThis.fetch, sleep: async () => {} };
const tokens = (input: number, output: number, cached = 0, writes = 0) => ({
  input_tokens: input,
  output_tokens: output,
  cached_tokens: cached,
  cache_creation_input_tokens: writes,
});

describe("a reader asked for a split", () => {
  // Both OpenAI reports are grouped by project too; each result names its project (null: none named).
  // Shapes of platform.openai.com/docs/api-reference/usage, read 2026-11-29.
  async function openAiStand() {
    const stand = await vendorStandIn("openai", OPENAI_PATHS);
    stands.push(stand);
    const [usagePath, costPath] = OPENAI_PATHS as [string, string];
    const usage = (project: string | null, input: number, output: number) => ({
      object: "organization.usage.completions.result",
      input_tokens: input,
      input_cached_tokens: 0,
      output_tokens: output,
      num_model_requests: 1,
      project_id: project,
      model: "gpt-4o-mini-2024-07-18",
    });
    const cost = (project: string | null, lineItem: string, value: number) => ({
      object: "organization.costs.result",
      amount: { value, currency: "usd" },
      line_item: lineItem,
      project_id: project,
    });
    stand.state.days[usagePath] = {
      [day]: [usage("proj_a", 1_000_000, 0), usage("proj_b", 0, 100_000), usage(null, 2_000, 0)],
    };
    // gpt-4o-mini at $0.15 per million input and $0.60 output (openai.com/api/pricing, read 2026-11-29).
    stand.state.days[costPath] = {
      [day]: [
        cost("proj_a", "gpt-4o-mini-2024-07-18, input", 0.15),
        cost("proj_b", "gpt-4o-mini-2024-07-18, output", 0.06),
        cost(null, "gpt-4o-mini-2024-07-18, input", 0.0003),
      ],
    };
    return stand;
  }

  it("OpenAI: groups both reports by project_id and keeps one figure per project", async () => {
    const stand = await openAiStand();
    const figures = await readOpenAi(
      { http, baseUrl: stand.baseUrl, now: new Date() },
      "sk-admin-StandInOnlyKey0123456789",
      { ...range, split: "project_id" },
    );
    expect(figures.map((figure) => [figure.split, figure.tokens, figure.cost_nanos])).toEqual([
      [null, tokens(2_000, 0), 300_000n],
      ["proj_a", tokens(1_000_000, 0), 150_000_000n],
      ["proj_b", tokens(0, 100_000), 60_000_000n],
    ]);
    for (const request of stand.state.requests) {
      expect(request.query.getAll("group_by"), request.path).toEqual([
        request.path.endsWith("/costs") ? "line_item" : "model",
        "project_id",
      ]);
    }
  });

  it("OpenAI: a key id splits nothing, the cost report not being grouped by key", async () => {
    const stand = await openAiStand();
    const figures = await readOpenAi(
      { http, baseUrl: stand.baseUrl, now: new Date() },
      "sk-admin-StandInOnlyKey0123456789",
      { ...range, split: "api_key_id" },
    );
    expect(figures).toEqual([
      {
        day,
        model: "gpt-4o-mini-2024-07-18",
        tokens: tokens(1_002_000, 100_000),
        cost_nanos: 210_300_000n,
        components: { input: 150_300_000n, output: 60_000_000n },
      },
    ]);
    expect(stand.state.requests.every((request) => !request.query.getAll("group_by").includes("api_key_id"))).toBe(
      true,
    );
  });

  it("Anthropic: groups both reports by workspace_id and keeps one figure per workspace", async () => {
    // Shapes of platform.claude.com/docs/en/api/admin/usage_report and .../admin/cost_report, read 2026-11-29;
    // the default workspace is named null.
    const stand = await vendorStandIn("anthropic", ANTHROPIC_PATHS);
    stands.push(stand);
    const [usagePath, costPath] = ANTHROPIC_PATHS as [string, string];
    const model = "claude-sonnet-4-5-20250929";
    const usage = (workspace: string | null, output: number) => ({
      workspace_id: workspace,
      model,
      uncached_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      output_tokens: output,
    });
    // Output at $15 per million (platform.claude.com/docs/en/about-claude/pricing, read 2026-11-29), in cents.
    const cost = (workspace: string | null, amount: string) => ({
      workspace_id: workspace,
      currency: "USD",
      amount,
      model,
      token_type: "output_tokens",
      cost_type: "tokens",
    });
    stand.state.days[usagePath] = { [day]: [usage("wrkspc_a", 100_000), usage(null, 10_000)] };
    stand.state.days[costPath] = { [day]: [cost("wrkspc_a", "150"), cost(null, "15")] };
    const figures = await readAnthropic(
      { http, baseUrl: stand.baseUrl, now: new Date() },
      "sk-ant-admin01-StandInOnlyKey0123456789",
      { ...range, split: "workspace_id" },
    );
    expect(figures.map((figure) => [figure.split, figure.tokens.output_tokens, figure.cost_nanos])).toEqual([
      [null, 10_000, 150_000_000n],
      ["wrkspc_a", 100_000, 1_500_000_000n],
    ]);
    for (const request of stand.state.requests) {
      expect(request.query.getAll("group_by[]"), request.path).toEqual([
        request.path.endsWith("cost_report") ? "description" : "model",
        "workspace_id",
      ]);
    }
  });
});
