import { randomBytes } from "node:crypto";
import {
  DAY_MS,
  DEFAULT_VENDOR_HTTP,
  getRun,
  putConnection,
  type ReconcileDeps,
  readBedrock,
  readGemini,
  readRows,
  reconcileTick,
  requestRun,
} from "@usage-ingestion/reconciliation";
import { handleMessage } from "@usage-ingestion/records";
import { firestoreReportSource, ReportCeiling } from "@usage-ingestion/reports";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { secretBox } from "@usage-ingestion/webhooks";
import { OAuth2Client } from "google-auth-library";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BigQueryStandIn, bigQueryStandIn } from "../setup/bigquery-stand-in.ts";
import { type CostExplorerStandIn, costExplorerStandIn } from "../setup/cost-explorer-stand-in.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { firestore, reportsFirestore, seedOrganization } from "../setup/harness.ts";
import { envelope, pushEvent, workerDeps } from "../setup/worker.ts";

// Made-up credentials in each vendor's form: the billing export's table, and an access key pair.
const TABLE = "billing-admin-01.billing_export.gcp_billing_export_v1_0123AB_CDEF45_6789AB";
const KEY_ID = "AKIARECONCILERUNTEST";
const SECRET = "ReconcileRunTestOnlySecretKey0123456789a";
const box = secretBox(randomBytes(32));
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const day = (n: number) => new Date(today - n * DAY_MS).toISOString().slice(0, 10);
let bigQuery: BigQueryStandIn;
let costExplorer: CostExplorerStandIn;
let org: string;

async function send(n: number, provider: string, model: string, metrics: Record<string, number>) {
  for (let i = 0; i < 10; i++) {
    const transaction = validTransaction({ provider, model, usage: [{ type: "tokens", metrics }] });
    await handleMessage(
      workerDeps(),
      pushEvent({ ...envelope(org, transaction), received_at: `${day(n)}T12:00:0${i}.000Z` }),
    );
  }
}

function deps(): ReconcileDeps {
  const http = { settings: { ...DEFAULT_VENDOR_HTTP, maxRetries: 1 }, fetch: globalThis.fetch, sleep: async () => {} };
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: "stand-in-access-token", expiry_date: Date.now() + 3_600_000 });
  return {
    db: reportsFirestore(),
    box,
    reports: firestoreReportSource(reportsFirestore()),
    readers: {
      gemini: (table, range) =>
        readGemini(
          { http, endpoint: bigQuery.endpoint, jobProject: "usage-worker", now: new Date(), auth: { authClient } },
          table,
          range,
        ),
      bedrock: (credential, range) =>
        readBedrock({ http, endpoint: costExplorer.endpoint, now: new Date() }, credential, range),
    },
    now: () => new Date(today + 12 * 3_600_000),
  };
}

beforeAll(async () => {
  bigQuery = await bigQueryStandIn();
  costExplorer = await costExplorerStandIn();
  org = (await seedOrganization()).organizationId;
  await putConnection(firestore(), box, org, "gemini", { credential: TABLE });
  await putConnection(firestore(), box, org, "bedrock", { credential: `${KEY_ID}:${SECRET}` });
  // Ten calls a day of each: Gemini 2.5 Flash with 100,000 input and 10,000 output tokens, at $0.30 and
  // $2.50 per million (ai.google.dev/gemini-api/docs/pricing, as found 2026-11-29), $0.055 a call; Claude
  // Sonnet 4.5 on Bedrock in-region with 10,000 input and 2,000 output, at $3 and $15 per million with the
  // regional endpoints' 10% premium, $3.30 and $16.50 (platform.claude.com/docs/en/about-claude/pricing,
  // read 2026-11-29), $0.066 a call.
  await send(2, "gemini", "gemini-2.5-flash", { input_tokens: 100_000, output_tokens: 10_000, total_tokens: 110_000 });
  await send(2, "bedrock", "anthropic.claude-sonnet-4-5-20250929-v1:0", {
    input_tokens: 10_000,
    output_tokens: 2_000,
    total_tokens: 12_000,
  });
  const sku = (kind: string) => `Generate content ${kind} token count gemini 2.5 flash short input text`;
  const row = (n: number, kind: string, amount: number, cost: string) => ({
    day: day(n),
    service: "Gemini API",
    sku: sku(kind),
    unit: "count",
    currency: "USD",
    usage_amount: String(amount),
    cost,
  });
  bigQuery.state.days[day(2)] = [row(2, "input", 1_000_000, "0.3"), row(2, "output", 100_000, "0.25")];
  // Calls Google billed that never reached us.
  bigQuery.state.days[day(1)] = [row(1, "input", 200_000, "0.06")];
  const line = (usageType: string, quantity: string, cost: string) => ({
    service: "Amazon Bedrock",
    usageType,
    quantity,
    unit: "1K tokens",
    cost,
  });
  costExplorer.state.days[day(2)] = [
    line("USE1-Claude4.5Sonnet-input-tokens", "100", "0.33"),
    line("USE1-Claude4.5Sonnet-output-tokens", "20", "0.33"),
  ];
});
afterAll(async () => {
  await Promise.all([bigQuery.close(), costExplorer.close()]);
});

describe("a reconciliation run with Google's billing export and AWS Cost Explorer", () => {
  it("compares each day and model with ours, and finds what only the vendor billed", async () => {
    const run = await requestRun(firestore(), org, { from: new Date(today - 3 * DAY_MS), to: new Date(today) });
    await reconcileTick(deps(), 7, [org]);
    const finished = await getRun(firestore(), org, run.id);
    expect(finished.state).toBe("succeeded");
    expect(finished.vendors.map((vendor) => [vendor.vendor, vendor.classes, vendor.error]).sort()).toEqual([
      ["bedrock", { matched: 1 }, null],
      ["gemini", { matched: 1, vendor_only: 1 }, null],
    ]);
    // Yesterday's gap ended twelve hours ago: Google's export may still be filling it, so it is not alerted yet.
    expect(finished.vendors.find((vendor) => vendor.vendor === "gemini")?.alerted).toEqual([]);
    const rows = await readRows(
      reportsFirestore(),
      org,
      { from: new Date(today - 3 * DAY_MS), to: new Date(today) },
      new ReportCeiling(),
    );
    expect(rows.map((row) => [row.vendor, row.day, row.model, row.class]).sort()).toEqual([
      ["bedrock", day(2), "claude-sonnet-4-5", "matched"],
      ["gemini", day(2), "gemini-2.5-flash", "matched"],
      ["gemini", day(1), "gemini-2.5-flash", "vendor_only"],
    ]);
    const bedrock = rows.find((row) => row.vendor === "bedrock");
    expect(bedrock).toMatchObject({
      our_models: ["anthropic.claude-sonnet-4-5-20250929-v1:0"],
      ours: { input_tokens: 100_000, output_tokens: 20_000, cost_usd: "0.660000000" },
      reported: { input_tokens: 100_000, output_tokens: 20_000, cost_usd: "0.660000000" },
    });
  });

  it("stores a failing reader's error on the run and the connection without the credential", async () => {
    bigQuery.state.failWith = { code: 404, reason: "notFound", message: `Not found: Table ${TABLE}` };
    costExplorer.state.failWith = {
      status: 400,
      type: "UnrecognizedClientException",
      message: `The security token included in the request is invalid (${KEY_ID}:${SECRET})`,
    };
    const run = await requestRun(firestore(), org, { from: new Date(today - 2 * DAY_MS), to: new Date(today) });
    const logged = await reconcileTick(deps(), 7, [org]);
    const failed = await getRun(firestore(), org, run.id);
    expect(failed.state).toBe("failed");
    expect(failed.vendors.map((vendor) => vendor.error).sort()).toEqual([
      "bedrock cost explorer: AWS refused the credential",
      "gemini billing export: the billing export table was not found",
    ]);
    const connections = await Promise.all(
      (["gemini", "bedrock"] as const).map(async (vendor) =>
        (await firestore().doc(DOCUMENT_PATHS.connection(org, vendor)).get()).data(),
      ),
    );
    expect(connections.map((connection) => connection?.last_error)).toEqual([
      expect.stringMatching(/table was not found/),
      expect.stringMatching(/refused the credential/),
    ]);
    const stored = JSON.stringify([failed, connections, logged]);
    for (const secret of [TABLE, "gcp_billing_export_v1_0123AB_CDEF45_6789AB", KEY_ID, SECRET]) {
      expect(stored).not.toContain(secret);
    }
  });
});
