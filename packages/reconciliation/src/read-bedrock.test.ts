import { afterEach, describe, expect, it } from "vitest";
import {
  type CostExplorerStandIn,
  type CostLine,
  costExplorerStandIn,
} from "../../../test/setup/cost-explorer-stand-in.ts";
import { bedrockModelName, bedrockUsage } from "./bedrock-usage-types.ts";
import { modelKey } from "./model-key.ts";
import { type BedrockReader, readBedrock } from "./read-bedrock.ts";
import { DAY_MS } from "./vendor-days.ts";
import { DEFAULT_VENDOR_HTTP } from "./vendor-http.ts";

const stands: CostExplorerStandIn[] = [];
afterEach(async () => {
  await Promise.all(stands.splice(0).map((stand) => stand.close()));
});

const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
const dayBefore = (n: number) => new Date(today.getTime() - n * DAY_MS).toISOString().slice(0, 10);
const range = { from: new Date(today.getTime() - 4 * DAY_MS), to: new Date(today.getTime() + DAY_MS) };
// A made-up access key pair in AWS's form.
const KEY_ID = "AKIASTANDINONLY12345";
const SECRET = "StandInOnlySecretAccessKey0123456789abcd";
const CREDENTIAL = `${KEY_ID}:${SECRET}`;

function reader(stand: CostExplorerStandIn, settings = {}): BedrockReader {
  return {
    endpoint: stand.endpoint,
    http: {
      settings: { ...DEFAULT_VENDOR_HTTP, maxRetries: 2, timeoutMs: 5_000, ...settings },
      fetch: globalThis.fetch,
      sleep: async () => undefined,
    },
    now: new Date(),
  };
}

const line = (usageType: string, quantity: string, cost: string, service = "Amazon Bedrock"): CostLine => ({
  service,
  usageType,
  cost,
  quantity,
  unit: "1K tokens",
});

describe("Bedrock's usage types", () => {
  it("name the model and token kind, in Bedrock's grammar and AWS Marketplace's", () => {
    expect(bedrockUsage("Amazon Bedrock", "USE1-Claude4.6Sonnet-input-tokens")).toEqual({
      model: "claude-sonnet-4-6",
      kind: "input_tokens",
      component: "input",
    });
    expect(bedrockUsage("Amazon Bedrock", "USE1-Claude4.6Sonnet-cache-read-input-token-count")?.kind).toBe(
      "cached_tokens",
    );
    expect(bedrockUsage("Amazon Bedrock", "USE1-Claude3.5Sonnet-cache-write-input-token-count")).toEqual({
      model: "claude-3-5-sonnet",
      kind: "cache_creation_input_tokens",
      component: "cache_write",
    });
    expect(bedrockUsage("Amazon Bedrock", "USE1-Claude4.6Sonnet-output-tokens-cross-region-global")?.model).toBe(
      "claude-sonnet-4-6",
    );
    expect(bedrockUsage("Amazon Bedrock", "USE1-Nova2.0Lite-input-tokens-flex")?.model).toBe("nova-2-lite");
    expect(bedrockUsage("Amazon Bedrock", "USE1-gpt-oss-120b-output-tokens-priority")).toEqual({
      model: "gpt-oss-120b",
      kind: "output_tokens",
      component: "output",
    });
    expect(bedrockUsage("Amazon Bedrock", "USE1-openai.gpt-oss-120b-mantle-input-tokens-standard")?.model).toBe(
      "gpt-oss-120b",
    );
    expect(bedrockUsage("Claude 3 Haiku (Amazon Bedrock Edition)", "USW2-MP:USW2_InputTokenCount-Units")).toEqual({
      model: "claude-3-haiku",
      kind: "input_tokens",
      component: "input",
    });
    expect(bedrockUsage("Amazon Bedrock", "USE1-ProvisionedThroughput-ModelUnits")).toBeNull();
    expect(bedrockUsage("Amazon Elastic Compute Cloud - Compute", "USE1-BoxUsage:t3.micro")).toBeNull();
    expect(bedrockModelName("Claude3Haiku")).toBe("claude-3-haiku");
  });

  it("reduce to the key our records' Bedrock model ids are compared under", () => {
    expect(modelKey("us.anthropic.claude-sonnet-4-5-20250929-v1:0")).toBe("claude-sonnet-4-5");
    expect(modelKey("anthropic.claude-3-5-sonnet-20240620-v1:0")).toBe("claude-3-5-sonnet");
    expect(modelKey("amazon.nova-2-lite-v1:0")).toBe("nova-2-lite");
    expect(modelKey("openai.gpt-oss-120b-1:0")).toBe("gpt-oss-120b");
    expect(modelKey("gpt-4o-mini-2024-07-18")).toBe("gpt-4o-mini");
    expect(modelKey("gemini-2.5-flash")).toBe("gemini-2.5-flash");
  });
});

describe("the Bedrock reader (Cost Explorer)", () => {
  it("reads every page after a throttle, per day and model, skipping an empty day and the day in progress", async () => {
    const stand = await costExplorerStandIn();
    stands.push(stand);
    // Claude Sonnet 4.5 at $3 per million input, $0.30 cache reads, $3.75 cache writes, $15 output, and
    // in-region (not global) 10% more: $3.30, $0.33, $4.125, $16.50 (platform.claude.com/docs/en/about-claude/
    // pricing, read 2026-11-29: "Regional endpoints include a 10% premium"). 1,000 thousand input in-region
    // are $3.30, 2,000 thousand cache reads $0.66, 100 thousand cache writes $0.4125, 100 thousand output
    // in-region $1.65 and 20 thousand through the global profile $0.30.
    stand.state.days[dayBefore(3)] = [
      line("USE1-Claude4.5Sonnet-input-tokens", "1000", "3.3"),
      line("USE1-Claude4.5Sonnet-cache-read-input-token-count", "2000", "0.66"),
      line("USE1-Claude4.5Sonnet-cache-write-input-token-count", "100", "0.4125"),
      line("USE1-Claude4.5Sonnet-output-tokens", "100", "1.65"),
      line("USE1-Claude4.5Sonnet-output-tokens-cross-region-global", "20", "0.3"),
      { ...line("USE1-ProvisionedThroughput-ModelUnits", "2", "0.0000000015"), unit: "Hrs" },
      // A Marketplace line in a unit we do not know gives its cost, and no count.
      {
        ...line("USW2-MP:USW2_InputTokenCount-Units", "40", "0.01", "Claude 3 Haiku (Amazon Bedrock Edition)"),
        unit: "Units",
      },
      // Not Bedrock: left out.
      { ...line("USE1-BoxUsage:t3.micro", "24", "0.2496", "Amazon Elastic Compute Cloud - Compute"), unit: "Hrs" },
    ];
    stand.state.days[dayBefore(1)] = [line("USE1-Claude4.5Sonnet-output-tokens", "10", "0.165")];
    stand.state.days[dayBefore(0)] = [line("USE1-Claude4.5Sonnet-output-tokens", "1", "0.015")];
    stand.state.throttle = 1;
    const figures = await readBedrock(reader(stand), CREDENTIAL, range);
    expect(figures).toEqual([
      {
        day: dayBefore(3),
        model: "Amazon Bedrock: USE1-ProvisionedThroughput-ModelUnits",
        tokens: { input_tokens: 0, cached_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0 },
        cost_nanos: 2n,
        components: {},
      },
      {
        day: dayBefore(3),
        model: "claude-3-haiku",
        tokens: { input_tokens: 0, cached_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0 },
        cost_nanos: 10_000_000n,
        components: { input: 10_000_000n },
      },
      {
        day: dayBefore(3),
        model: "claude-sonnet-4-5",
        tokens: {
          input_tokens: 1_000_000,
          cached_tokens: 2_000_000,
          cache_creation_input_tokens: 100_000,
          output_tokens: 120_000,
        },
        cost_nanos: 6_322_500_000n,
        components: {
          input: 3_300_000_000n,
          cache_read: 660_000_000n,
          cache_write: 412_500_000n,
          output: 1_950_000_000n,
        },
      },
      {
        day: dayBefore(1),
        model: "claude-sonnet-4-5",
        tokens: { input_tokens: 0, cached_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 10_000 },
        cost_nanos: 165_000_000n,
        components: { output: 165_000_000n },
      },
    ]);
    // Five days at two a page: three pages, and the one throttled try.
    expect(stand.state.requests.length).toBe(4);
    const [first, , , last] = stand.state.requests;
    expect(first?.target).toBe("AWSInsightsIndexService.GetCostAndUsage");
    expect(first?.headers.authorization).toMatch(new RegExp(`Credential=${KEY_ID}/\\d{8}/us-east-1/ce/aws4_request`));
    expect(first?.body).toMatchObject({
      TimePeriod: { Start: dayBefore(4), End: new Date(range.to).toISOString().slice(0, 10) },
      Granularity: "DAILY",
      Metrics: ["UnblendedCost", "UsageQuantity"],
      GroupBy: [
        { Type: "DIMENSION", Key: "SERVICE" },
        { Type: "DIMENSION", Key: "USAGE_TYPE" },
      ],
      Filter: {
        Or: [
          { Dimensions: { Key: "SERVICE", Values: ["Amazon Bedrock"] } },
          { Dimensions: { Key: "BILLING_ENTITY", Values: ["AWS Marketplace"] } },
        ],
      },
    });
    expect(last?.body.NextPageToken).toBeDefined();
  });

  it("reads a restated day as restated", async () => {
    const stand = await costExplorerStandIn();
    stands.push(stand);
    stand.state.days[dayBefore(2)] = [line("USE1-Claude4.5Sonnet-input-tokens", "100", "0.33")];
    expect((await readBedrock(reader(stand), CREDENTIAL, range))[0]?.tokens.input_tokens).toBe(100_000);
    stand.state.days[dayBefore(2)] = [line("USE1-Claude4.5Sonnet-input-tokens", "150", "0.495")];
    const again = await readBedrock(reader(stand), CREDENTIAL, range);
    expect(again[0]?.tokens.input_tokens).toBe(150_000);
    expect(again[0]?.cost_nanos).toBe(495_000_000n);
  });

  it("never repeats the key: a refusal, a throttle past its tries, a role it cannot assume", async () => {
    const stand = await costExplorerStandIn();
    stands.push(stand);
    stand.state.failWith = {
      status: 400,
      type: "UnrecognizedClientException",
      message: `The security token included in the request is invalid: ${KEY_ID}`,
    };
    const refused = await readBedrock(reader(stand), CREDENTIAL, range).catch((error: Error) => error);
    expect(String(refused)).toMatch(/AWS refused the credential/);
    expect(String(refused)).not.toContain(KEY_ID);
    expect(String(refused)).not.toContain(SECRET);
    stand.state.failWith = undefined;
    stand.state.throttle = 10;
    await expect(readBedrock(reader(stand), CREDENTIAL, range)).rejects.toThrow(/rate limited/);
    expect(stand.state.requests.length).toBe(1 + 3);
    const role = "arn:aws:iam::123456789012:role/usage-reconciliation";
    const assumed = await readBedrock(reader(stand), role, range).catch((error: Error) => error);
    expect(String(assumed)).toMatch(/assuming an IAM role is not available yet/);
    expect(String(assumed)).not.toContain("123456789012");
  });

  it("refuses a report past its pages", async () => {
    const stand = await costExplorerStandIn();
    stands.push(stand);
    await expect(readBedrock(reader(stand, { maxPages: 2 }), CREDENTIAL, range)).rejects.toThrow(/more than 2 pages/);
  });
});
