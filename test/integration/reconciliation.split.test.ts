import { randomBytes } from "node:crypto";
import { setDimensions } from "@usage-ingestion/organizations";
import {
  claimRun,
  DAY_MS,
  DEFAULT_VENDOR_HTTP,
  finishRun,
  putConnection,
  type ReconcileDeps,
  readAnthropic,
  reconcile,
  requestRun,
} from "@usage-ingestion/reconciliation";
import { handleMessage } from "@usage-ingestion/records";
import { firestoreReportSource } from "@usage-ingestion/reports";
import { secretBox } from "@usage-ingestion/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validTransaction } from "../setup/fixtures.ts";
import { gatewayOnEmulators } from "../setup/gateway.ts";
import { firestore, reportsFirestore } from "../setup/harness.ts";
import { ANTHROPIC_PATHS, type VendorStandIn, vendorStandIn } from "../setup/vendor-stand-ins.ts";
import { envelope, pushEvent, workerDeps } from "../setup/worker.ts";

const setup = gatewayOnEmulators();
const box = secretBox(randomBytes(32));
// A made-up Admin API key in Anthropic's form.
const CREDENTIAL = "sk-ant-admin01-Rec0nciliationSplitKeyOnly";
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const day = (n: number) => new Date(today - n * DAY_MS).toISOString().slice(0, 10);
const SONNET = "claude-sonnet-4-5-20250929";
let stand: VendorStandIn;

/** One call of Claude Sonnet 4.5 two days ago, in the workspace its context names (or none). */
async function send(input: number, output: number, workspace?: string) {
  const transaction = validTransaction({
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: [{ type: "tokens", metrics: { input_tokens: input, output_tokens: output, total_tokens: input + output } }],
    context: { billable_customer_id: "cust-1", ...(workspace ? { workspace } : {}) },
  });
  const org = setup.org.organizationId;
  await handleMessage(
    workerDeps(),
    pushEvent({ ...envelope(org, transaction), received_at: `${day(2)}T12:00:00.000Z` }),
  );
}

const usage = (workspace: string | null, input: number, output: number) => ({
  workspace_id: workspace,
  model: SONNET,
  uncached_input_tokens: input,
  cache_read_input_tokens: 0,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  output_tokens: output,
});
const cost = (workspace: string | null, tokenType: string, amount: string) => ({
  workspace_id: workspace,
  currency: "USD",
  amount,
  model: SONNET,
  token_type: tokenType,
  cost_type: "tokens",
});

beforeAll(async () => {
  const org = setup.org.organizationId;
  await setDimensions(firestore(), org, ["workspace"]);
  await putConnection(firestore(), box, org, "anthropic", {
    credential: CREDENTIAL,
    mappings: { workspace_id: "workspace" },
  });
  // At $3 input and $15 output per million (platform.claude.com/docs/en/about-claude/pricing, read
  // 2026-11-29): 1,000 input and 1,000,000 output cost $0.003 + $15; 1,000 input and 100,000 output,
  // $0.003 + $1.50.
  await send(1_000, 1_000_000, "wrkspc_a");
  await send(1_000, 100_000);
  stand = await vendorStandIn("anthropic", ANTHROPIC_PATHS);
  const [usagePath, costPath] = ANTHROPIC_PATHS as [string, string];
  stand.state.days[usagePath] = {
    // The same calls, by workspace (the default one is null), and 500 input and 5,000 output tokens in a
    // workspace whose calls never reached us.
    [day(2)]: [usage("wrkspc_a", 1_000, 1_000_000), usage(null, 1_000, 100_000), usage("wrkspc_b", 500, 5_000)],
  };
  stand.state.days[costPath] = {
    // In cents: 0.3 and 1500, 0.3 and 150; 0.15 and 7.5.
    [day(2)]: [
      cost("wrkspc_a", "uncached_input_tokens", "0.3"),
      cost("wrkspc_a", "output_tokens", "1500"),
      cost(null, "uncached_input_tokens", "0.3"),
      cost(null, "output_tokens", "150"),
      cost("wrkspc_b", "uncached_input_tokens", "0.15"),
      cost("wrkspc_b", "output_tokens", "7.5"),
    ],
  };
});
afterAll(() => stand.close());

function deps(): ReconcileDeps {
  const http = { settings: DEFAULT_VENDOR_HTTP, fetch: globalThis.fetch, sleep: async () => {} };
  return {
    db: reportsFirestore(),
    box: box,
    reports: firestoreReportSource(reportsFirestore()),
    readers: {
      anthropic: (credential, range) =>
        readAnthropic({ http, baseUrl: stand.baseUrl, now: new Date() }, credential, range),
    },
    now: () => new Date(today + 12 * 3_600_000),
  };
}

describe("a run of a connection whose workspace is mapped to a dimension", () => {
  it("splits each day and model by workspace, and GET /usage/reconciliation shows the split", async () => {
    const org = setup.org.organizationId;
    const run = await requestRun(firestore(), org, {
      from: new Date(today - 3 * DAY_MS),
      to: new Date(today - DAY_MS),
    });
    // As a tick takes it up, without the tick (which looks at every organization's queued runs).
    expect(await claimRun(firestore(), run, new Date())).toBe(true);
    const vendors = await reconcile(deps(), run);
    await finishRun(firestore(), run, vendors, new Date());
    const [result] = vendors;
    expect(result).toMatchObject({
      vendor: "anthropic",
      rows: 3,
      classes: { matched: 2, vendor_only: 1 },
      error: null,
    });
    const groupedBy = stand.state.requests.map((request) => request.query.getAll("group_by[]"));
    expect(groupedBy).toContainEqual(["model", "workspace_id"]);
    expect(groupedBy).toContainEqual(["description", "workspace_id"]);

    const answer = await fetch(`${setup.gateway.baseUrl}/usage/reconciliation?from=${day(3)}&to=${day(1)}`, {
      headers: { "x-api-key": setup.org.readKey },
    });
    expect(answer.status).toBe(200);
    const { rows, classes } = await answer.json();
    expect(classes).toMatchObject({ matched: 2, vendor_only: 1 });
    const split = { vendor_field: "workspace_id", dimension: "workspace" };
    expect(
      rows.map((row: { split: unknown; class: string; ours: { cost_usd: string }; reported: { cost_usd: string } }) => [
        row.split,
        row.class,
        row.ours.cost_usd,
        row.reported.cost_usd,
      ]),
    ).toEqual([
      [{ ...split, value: null }, "matched", "1.503000000", "1.503000000"],
      [{ ...split, value: "wrkspc_a" }, "matched", "15.003000000", "15.003000000"],
      [{ ...split, value: "wrkspc_b" }, "vendor_only", "0.000000000", "0.076500000"],
    ]);
    expect(rows[1]).toMatchObject({ ours: { input_tokens: 1_000, output_tokens: 1_000_000, transactions: 1 } });
  });
});
