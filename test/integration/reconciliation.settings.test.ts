import { randomBytes } from "node:crypto";
import { createApiKey } from "@usage-ingestion/organizations";
import {
  claimRun,
  DAY_MS,
  DEFAULT_VENDOR_HTTP,
  finishRun,
  putConnection,
  putSettings,
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
import { databases, firestore, reportsFirestore, seedOrganization } from "../setup/harness.ts";
import { managementCalls } from "../setup/management.ts";
import { ANTHROPIC_PATHS, type VendorStandIn, vendorStandIn } from "../setup/vendor-stand-ins.ts";
import { envelope, pushEvent, workerDeps } from "../setup/worker.ts";

const setup = gatewayOnEmulators();
let adminKey: string;
const { call, orgPath } = managementCalls(setup, () => adminKey);

const DEFAULTS = {
  tolerance_percent: 1,
  tolerance_usd: "0.010000000",
  drift_threshold_percent: 1,
  drift_threshold_usd: "0.010000000",
};

beforeAll(async () => {
  adminKey = (await createApiKey(databases(), setup.org.organizationId, undefined, undefined, "admin")).key;
});

describe("an organization's reconciliation settings", () => {
  it("are the defaults until set, then what was set, each change audited and guarded by its etag", async () => {
    const first = await call("GET", orgPath("/reconciliation/settings"));
    expect(first.status).toBe(200);
    const defaults = await first.json();
    expect(defaults).toEqual({ ...DEFAULTS, updated_at: null, etag: expect.any(String) });
    expect(first.headers.get("etag")).toBe(`"${defaults.etag}"`);

    const set = await call(
      "PUT",
      orgPath("/reconciliation/settings"),
      { tolerance_percent: 2.5, tolerance_usd: "0.05", drift_threshold_usd: "1" },
      { "if-match": `"${defaults.etag}"` },
    );
    expect(set.status).toBe(200);
    const stored = await set.json();
    expect(stored).toEqual({
      tolerance_percent: 2.5,
      tolerance_usd: "0.050000000",
      drift_threshold_percent: 1,
      drift_threshold_usd: "1.000000000",
      updated_at: expect.any(String),
      etag: expect.any(String),
    });
    expect(stored.etag).not.toBe(defaults.etag);
    expect(await (await call("GET", orgPath("/reconciliation/settings"))).json()).toEqual(stored);

    // The etag read before the change is stale now: nothing changes.
    const stale = await call(
      "PUT",
      orgPath("/reconciliation/settings"),
      { tolerance_percent: 3 },
      { "if-match": `"${defaults.etag}"` },
    );
    expect(stale.status).toBe(409);
    expect((await stale.json()).error.code).toBe("conflict");
    expect((await (await call("GET", orgPath("/reconciliation/settings"))).json()).tolerance_percent).toBe(2.5);

    const log = await (await call("GET", orgPath("/audit-log"))).json();
    const entries = log.entries.filter(
      (entry: { action: string }) => entry.action === "reconciliation_settings.updated",
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      target: { type: "reconciliation_settings", id: setup.org.organizationId },
      changes: {
        before: { ...DEFAULTS, updated_at: null },
        after: { tolerance_percent: 2.5, tolerance_usd: "0.050000000", drift_threshold_usd: "1.000000000" },
      },
    });
  });

  it("refuses what is out of bounds or unknown, by field, and changes nothing", async () => {
    const before = await (await call("GET", orgPath("/reconciliation/settings"))).json();
    for (const [body, field] of [
      [{ tolerance_percent: 101 }, "tolerance_percent"],
      [{ tolerance_percent: -1 }, "tolerance_percent"],
      [{ drift_threshold_percent: 0.00001 }, "drift_threshold_percent"],
      [{ tolerance_usd: 0.01 }, "tolerance_usd"],
      [{ tolerance_usd: "1e3" }, "tolerance_usd"],
      [{ drift_threshold_usd: "0.0000000001" }, "drift_threshold_usd"],
      [{ drift_threshold_usd: "1000000.01" }, "drift_threshold_usd"],
      [{ tolerance: 1 }, "tolerance"],
    ] as const) {
      const refused = await call("PUT", orgPath("/reconciliation/settings"), body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      const { error } = await refused.json();
      expect(error.code).toBe("validation_error");
      expect(JSON.stringify(error.details), JSON.stringify(body)).toContain(field);
    }
    expect(await (await call("GET", orgPath("/reconciliation/settings"))).json()).toEqual(before);
    expect((await call("DELETE", orgPath("/reconciliation/settings"))).status).toBe(405);
    const other = await seedOrganization();
    expect((await call("GET", `/v1/orgs/${other.organizationId}/reconciliation/settings`)).status).toBe(404);
  });
});

// A made-up Admin API key in Anthropic's form.
const CREDENTIAL = "sk-ant-admin01-Rec0nciliationSettingsKeyOnly";
const box = secretBox(randomBytes(32));
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const day = (n: number) => new Date(today - n * DAY_MS).toISOString().slice(0, 10);
const SONNET = "claude-sonnet-4-5-20250929";
let stand: VendorStandIn;

describe("a run with the organization's settings", () => {
  beforeAll(async () => {
    stand = await vendorStandIn("anthropic", ANTHROPIC_PATHS);
    const [usagePath, costPath] = ANTHROPIC_PATHS as [string, string];
    // The vendor counted the same 1,000 input tokens and 2% more output than we did: 1,020,000 output
    // tokens to our 1,000,000 (below). At $3 and $15 per million
    // (platform.claude.com/docs/en/about-claude/pricing, read 2026-11-29): 0.3 and 1530 cents, $15.303 to
    // our $15.003, $0.30 apart.
    stand.state.days[usagePath] = {
      [day(2)]: [{ model: SONNET, uncached_input_tokens: 1_000, cache_read_input_tokens: 0, output_tokens: 1_020_000 }],
    };
    stand.state.days[costPath] = {
      [day(2)]: [
        { amount: "0.3", currency: "USD", model: SONNET, token_type: "uncached_input_tokens" },
        { amount: "1530", currency: "USD", model: SONNET, token_type: "output_tokens" },
      ],
    };
  });
  afterAll(() => stand.close());

  const deps = (): ReconcileDeps => {
    const http = { settings: DEFAULT_VENDOR_HTTP, fetch: globalThis.fetch, sleep: async () => {} };
    return {
      db: reportsFirestore(),
      box,
      reports: firestoreReportSource(reportsFirestore()),
      readers: {
        anthropic: (credential, range) =>
          readAnthropic({ http, baseUrl: stand.baseUrl, now: new Date() }, credential, range),
      },
      now: () => new Date(today + 12 * 3_600_000),
    };
  };

  /** One organization that sent one call of 1,000 input and 1,000,000 output tokens ($15.003) two days ago. */
  async function connectedOrganization() {
    const org = (await seedOrganization()).organizationId;
    await putConnection(firestore(), box, org, "anthropic", { credential: CREDENTIAL });
    const transaction = validTransaction({
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: [{ type: "tokens", metrics: { input_tokens: 1_000, output_tokens: 1_000_000, total_tokens: 1_001_000 } }],
    });
    await handleMessage(
      workerDeps(),
      pushEvent({ ...envelope(org, transaction), received_at: `${day(2)}T12:00:00.000Z` }),
    );
    return org;
  }

  it("classes and alerts within the organization's own tolerance and threshold", async () => {
    const strict = await connectedOrganization();
    const lenient = await connectedOrganization();
    const rowsOnly = await connectedOrganization();
    await putSettings(firestore(), lenient, { tolerance_percent: 2.5, drift_threshold_percent: 2.5 });
    await putSettings(firestore(), rowsOnly, { tolerance_percent: 2.5 });
    const results: Record<string, unknown> = {};
    for (const org of [strict, lenient, rowsOnly]) {
      // The run itself, as a tick takes it up, not a tick: a tick looks at the queued runs of every
      // organization on the emulator.
      const run = await requestRun(firestore(), org, {
        from: new Date(today - 3 * DAY_MS),
        to: new Date(today - DAY_MS),
      });
      expect(await claimRun(firestore(), run, new Date())).toBe(true);
      const vendors = await reconcile(deps(), run);
      await finishRun(firestore(), run, vendors, new Date());
      results[org] = vendors[0];
    }
    // 2% and $0.30 apart: past the default 1% (of $15.303, $0.153) and $0.01; within 2.5% ($0.383).
    expect(results[strict]).toMatchObject({ classes: { count_mismatch: 1 }, alerted: [day(2)] });
    expect(results[lenient]).toMatchObject({ classes: { matched: 1 }, alerted: [] });
    // The rows' tolerance and the day's threshold are two settings.
    expect(results[rowsOnly]).toMatchObject({ classes: { matched: 1 }, alerted: [day(2)] });
  });
});
