import { randomBytes } from "node:crypto";
import {
  DAY_MS,
  DEFAULT_VENDOR_HTTP,
  getRun,
  putConnection,
  type ReconcileDeps,
  type ReconciliationRow,
  readAnthropic,
  readRows,
  reconcileTick,
  requestRun,
} from "@usage-ingestion/reconciliation";
import { handleMessage } from "@usage-ingestion/records";
import { firestoreReportSource, ReportCeiling } from "@usage-ingestion/reports";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { secretBox } from "@usage-ingestion/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicCostRow as cost, anthropicUsageRow as usage } from "../setup/anthropic-report-rows.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { firestore, reportsFirestore, seedOrganization } from "../setup/harness.ts";
import { ANTHROPIC_PATHS, type VendorStandIn, vendorStandIn } from "../setup/vendor-stand-ins.ts";
import { envelope, pushEvent, workerDeps } from "../setup/worker.ts";

// A made-up Admin API key in Anthropic's form.
const CREDENTIAL = "sk-ant-admin01-Rec0nciliationRunTestKeyOnly";
const box = secretBox(randomBytes(32));
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const day = (n: number) => new Date(today - n * DAY_MS).toISOString().slice(0, 10);
let stand: VendorStandIn;
let org: string;

/**
 * Ten calls of Claude Sonnet 4.5 on a day, each 10,000 uncached input, 100,000 cache reads and 2,000 output
 * tokens: at $3, $0.30 and $15 per million (platform.claude.com/docs/en/about-claude/pricing, read
 * 2026-11-29) each costs $0.03 + $0.03 + $0.03, the day $0.90.
 */
async function sendDay(n: number) {
  for (let i = 0; i < 10; i++) {
    const transaction = validTransaction({
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 10_000,
            cache_read_input_tokens: 100_000,
            output_tokens: 2_000,
            total_tokens: 112_000,
          },
        },
      ],
    });
    await handleMessage(
      workerDeps(),
      pushEvent({ ...envelope(org, transaction), received_at: `${day(n)}T12:00:0${i}.000Z` }),
    );
  }
}

const SONNET = "claude-sonnet-4-5-20250929";

function deps(): ReconcileDeps {
  const http = { settings: DEFAULT_VENDOR_HTTP, fetch: globalThis.fetch, sleep: async () => {} };
  return {
    db: reportsFirestore(),
    box,
    reports: firestoreReportSource(reportsFirestore()),
    readers: {
      anthropic: (credential, range) =>
        readAnthropic({ http, baseUrl: stand.baseUrl, now: new Date() }, credential, range),
    },
    // Midday: the day's own run is queued from 06:00, and yesterday has settled for the drift alert.
    now: () => new Date(today + 12 * 3_600_000),
  };
}

beforeAll(async () => {
  stand = await vendorStandIn("anthropic", ANTHROPIC_PATHS);
  org = (await seedOrganization()).organizationId;
  await putConnection(firestore(), box, org, "anthropic", { credential: CREDENTIAL });
  for (const n of [3, 2]) await sendDay(n);
  const [usagePath, costPath] = ANTHROPIC_PATHS as [string, string];
  stand.state.days[usagePath] = {
    [day(4)]: [],
    [day(3)]: [usage(SONNET, 100_000, 1_000_000, 20_000)],
    [day(2)]: [usage(SONNET, 100_000, 1_000_000, 20_000)],
    // Calls the vendor billed that never reached us: 50,000 input and 5,000 output of Haiku 4.5.
    [day(1)]: [usage("claude-haiku-4-5-20251001", 50_000, 0, 5_000)],
  };
  stand.state.days[costPath] = {
    [day(3)]: [
      cost(SONNET, "uncached_input_tokens", "30"),
      cost(SONNET, "cache_read_input_tokens", "30"),
      cost(SONNET, "output_tokens", "30"),
    ],
    // The same counts, with the cache reads billed at 37.5 cents: our cache-read rate is not the vendor's.
    [day(2)]: [
      cost(SONNET, "uncached_input_tokens", "30"),
      cost(SONNET, "cache_read_input_tokens", "37.5"),
      cost(SONNET, "output_tokens", "30"),
    ],
    // Haiku 4.5 at $1 and $5 per million (the same pricing page): 5 cents and 2.5 cents.
    [day(1)]: [
      cost("claude-haiku-4-5-20251001", "uncached_input_tokens", "5"),
      cost("claude-haiku-4-5-20251001", "output_tokens", "2.5"),
    ],
  };
  stand.state.today = { day: day(0), results: { [usagePath]: [usage(SONNET, 1, 1, 1)] } };
});
afterAll(async () => {
  await stand.close();
});

const rowOf = (rows: ReconciliationRow[], n: number) => rows.find((row) => row.day === day(n));

describe("a reconciliation run", () => {
  it("classes each day against the vendor's report, names the mismatched component and keeps the key out", async () => {
    const run = await requestRun(firestore(), org, {
      from: new Date(today - 5 * DAY_MS),
      to: new Date(today + DAY_MS),
    });
    expect(run.state).toBe("queued");
    const tick = await reconcileTick(deps(), 7, [org]);
    expect(tick.done.map((done) => done.run_id)).toContain(run.id);
    const finished = await getRun(firestore(), org, run.id);
    expect(finished.state).toBe("succeeded");
    expect(finished.vendors).toEqual([
      {
        vendor: "anthropic",
        rows: 3,
        classes: { matched: 1, price_mismatch: 1, vendor_only: 1 },
        // The cache reads' $0.075 and the unreported Haiku calls' $0.075 each pass 1% and $0.01.
        alerted: [day(2), day(1)],
        error: null,
      },
    ]);

    const rows = await readRows(
      reportsFirestore(),
      org,
      { from: new Date(today - 7 * DAY_MS), to: new Date(today + DAY_MS) },
      new ReportCeiling(),
    );
    expect(rows.map((row) => [row.day, row.model, row.class])).toEqual([
      [day(3), "claude-sonnet-4-5", "matched"],
      [day(2), "claude-sonnet-4-5", "price_mismatch"],
      [day(1), "claude-haiku-4-5", "vendor_only"],
    ]);
    expect(rowOf(rows, 3)).toMatchObject({
      our_models: ["claude-sonnet-4-5"],
      vendor_models: [SONNET],
      ours: {
        input_tokens: 100_000,
        cached_tokens: 1_000_000,
        output_tokens: 20_000,
        cost_usd: "0.900000000",
        transactions: 10,
      },
      reported: { input_tokens: 100_000, cached_tokens: 1_000_000, output_tokens: 20_000, cost_usd: "0.900000000" },
      difference: { input_tokens: 0, cost_usd: "0.000000000" },
      component: null,
    });
    expect(rowOf(rows, 2)).toMatchObject({
      component: "cache_read",
      component_cost: { ours_usd: "0.300000000", vendor_usd: "0.375000000" },
      difference: { cost_usd: "0.075000000" },
    });
    expect(rowOf(rows, 1)).toMatchObject({
      ours: { input_tokens: 0, cost_usd: "0.000000000", transactions: 0 },
      reported: { input_tokens: 50_000, output_tokens: 5_000, cost_usd: "0.075000000" },
    });

    const connection = (await firestore().doc(DOCUMENT_PATHS.connection(org, "anthropic")).get()).data();
    expect(connection?.last_error).toBeNull();
    expect(connection?.last_run_at).toEqual(expect.any(String));
    // The daily run of today was queued and done by the same tick.
    expect(tick.queued).toBe(1);
    expect((await getRun(firestore(), org, `daily_${day(0)}`)).state).toBe("succeeded");
    const outbox = await firestore().collection(DOCUMENT_PATHS.events(org)).get();
    expect(outbox.docs.map((doc) => doc.id).sort()).toEqual([
      `reconciliation_anthropic_${day(2)}`,
      `reconciliation_anthropic_${day(1)}`,
    ]);
    expect(outbox.docs.find((doc) => doc.id.endsWith(day(1)))?.data().data).toMatchObject({
      vendor: "anthropic",
      ours_usd: "0.000000000",
      reported_usd: "0.075000000",
      rows: [{ model: "claude-haiku-4-5", class: "vendor_only", difference_usd: "0.075000000" }],
    });
    const stored = JSON.stringify([finished, rows, connection, outbox.docs.map((doc) => doc.data())]);
    expect(stored).not.toContain(CREDENTIAL);
  });

  it("reads a restated day again, and records a vendor's refusal without the key", async () => {
    const [usagePath] = ANTHROPIC_PATHS as [string];
    (stand.state.days[usagePath] as Record<string, unknown[]>)[day(3)] = [usage(SONNET, 150_000, 1_000_000, 20_000)];
    const run = await requestRun(firestore(), org, {
      from: new Date(today - 3 * DAY_MS),
      to: new Date(today - 2 * DAY_MS),
    });
    await reconcileTick(deps(), 7, [org]);
    expect((await getRun(firestore(), org, run.id)).state).toBe("succeeded");
    const rows = await readRows(
      reportsFirestore(),
      org,
      { from: new Date(today - 3 * DAY_MS), to: new Date(today - 2 * DAY_MS) },
      new ReportCeiling(),
    );
    // The days already alerted are not alerted again.
    expect((await firestore().collection(DOCUMENT_PATHS.events(org)).get()).size).toBe(2);
    expect(rows.map((row) => [row.class, row.difference.input_tokens])).toEqual([["count_mismatch", 50_000]]);

    stand.state.throttle = 100;
    const refused = await requestRun(firestore(), org, {
      from: new Date(today - 2 * DAY_MS),
      to: new Date(today - DAY_MS),
    });
    // What the job logs of a tick (its problems and summary line) is made of this.
    const logged = await reconcileTick(deps(), 7, [org]);
    expect(JSON.stringify(logged)).toMatch(/rate limited/);
    expect(JSON.stringify(logged)).not.toContain(CREDENTIAL);
    const failed = await getRun(firestore(), org, refused.id);
    expect(failed.state).toBe("failed");
    expect(failed.vendors[0]?.error).toMatch(/rate limited/);
    stand.state.throttle = 0;
    const connection = (await firestore().doc(DOCUMENT_PATHS.connection(org, "anthropic")).get()).data();
    expect(connection?.last_error).toMatch(/rate limited/);
    expect(JSON.stringify([failed, connection])).not.toContain(CREDENTIAL);
  });
});
