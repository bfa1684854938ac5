import { afterEach, describe, expect, it } from "vitest";
import type { ReportSettings } from "../env.ts";
import { fakeReportSource } from "../testing/fake-report-source.ts";
import { startTestGateway, type TestGateway } from "../testing/gateway-harness.ts";

// Reports at once, shared between organizations: one organization with many read keys cannot take every
// slot of an instance (each of its reports running to its time limit), so another organization's report
// still runs; and a refusal asks for no longer a wait than the report time limit.

const NOW = new Date("2026-05-02T00:00:00.000Z");
const RANGE = "from=2026-05-01T00:00:00Z&to=2026-05-01T12:00:00Z";
const TIMEOUT_MS = 10_000;
const SETTINGS: ReportSettings = {
  maxDocuments: 10_000,
  timeoutMs: TIMEOUT_MS,
  maxGroups: 1_000,
  groupsPerInstance: 10_000,
  atOnce: { perInstance: 4, perOrganization: 2, perKey: 1 },
};

let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

describe("GET /usage/costs: slots shared between organizations", () => {
  it("leaves slots to other organizations however many keys one organization uses", async () => {
    const reports = fakeReportSource();
    gateway = await startTestGateway({ reports, now: () => NOW, reportSettings: SETTINGS });
    const heavy = gateway.keys.organization();
    // As many read keys as the instance has slots, each within its own key's limit.
    const keys = [heavy.readKey, "usk_heavy_second_read_key", "usk_heavy_third_read_key", "usk_heavy_fourth_key"];
    for (const key of keys.slice(1)) gateway.keys.add(key, heavy.organizationId, "read");
    // Two pages of records: each of its reports waits on the second until released (as a slow read does).
    reports.add(
      heavy.organizationId,
      ...Array.from({ length: 60 }, (_, i) => ({
        received_at: `2026-05-01T01:${String(i % 60).padStart(2, "0")}:00.000Z`,
      })),
    );
    const stall = reports.stall(heavy.organizationId);
    const light = gateway.keys.organization();
    reports.add(light.organizationId, { received_at: "2026-05-01T02:00:00.000Z", cost_nanos: 7 });
    const costs = (key: string) =>
      (gateway as TestGateway).request(`/usage/costs?${RANGE}`, { headers: { "x-api-key": key } });
    try {
      const running = [costs(keys[0] as string), costs(keys[1] as string)];
      await stall.reached;
      const startedAt = Date.now();
      const refused = await Promise.all([costs(keys[2] as string), costs(keys[3] as string)]);
      for (const response of refused) {
        expect(response.status).toBe(429);
        expect(await response.json()).toEqual({
          error: {
            code: "rate_limited",
            message: "Too many reports at once (at most 2 for one organization); retry shortly.",
          },
        });
        // The wait until the oldest of its reports reaches its time limit at the latest, never longer.
        const retryAfter = Number(response.headers.get("retry-after"));
        expect(retryAfter).toBeGreaterThanOrEqual(Math.floor((TIMEOUT_MS - (Date.now() - startedAt) - 1_000) / 1000));
        expect(retryAfter).toBeLessThanOrEqual(TIMEOUT_MS / 1000);
      }
      // Another organization's report runs beside them.
      const answered = await costs(light.readKey);
      expect(answered.status).toBe(200);
      expect((await answered.json()).totals.cost_nanos).toBe("7");
      stall.release();
      for (const response of await Promise.all(running)) expect(response.status).toBe(200);
      // Their places are given back.
      expect((await costs(keys[2] as string)).status).toBe(200);
    } finally {
      stall.release();
    }
  });

  it("still holds the instance's own total across organizations", async () => {
    const reports = fakeReportSource();
    gateway = await startTestGateway({
      reports,
      now: () => NOW,
      reportSettings: { ...SETTINGS, atOnce: { perInstance: 2, perOrganization: 1, perKey: 1 } },
    });
    const stalls = [];
    const running = [];
    for (let index = 0; index < 2; index++) {
      const org = (gateway as TestGateway).keys.organization();
      reports.add(
        org.organizationId,
        ...Array.from({ length: 60 }, () => ({ received_at: "2026-05-01T01:00:00.000Z" })),
      );
      const stall = reports.stall(org.organizationId);
      stalls.push(stall);
      running.push(gateway.request(`/usage/costs?${RANGE}`, { headers: { "x-api-key": org.readKey } }));
      await stall.reached;
    }
    try {
      const third = gateway.keys.organization();
      const refused = await gateway.request(`/usage/costs?${RANGE}`, { headers: { "x-api-key": third.readKey } });
      expect(refused.status).toBe(429);
      expect((await refused.json()).error.message).toBe(
        "Too many reports at once (at most 2 on this instance); retry shortly.",
      );
    } finally {
      for (const stall of stalls) stall.release();
      await Promise.all(running);
    }
  });
});
