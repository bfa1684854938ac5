import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_SETTINGS,
  ReconciliationSettingsSchema,
  settingsFromView,
  settingsOf,
  settingsView,
} from "./reconciliation-settings.ts";

describe("reconciliation settings", () => {
  it("take the defaults for what is left out: 1% (10,000 ppm) and $0.01 (10,000,000 nanos)", () => {
    expect(settingsOf({})).toEqual({
      tolerance: { ppm: 10_000, nanos: 10_000_000n },
      driftThreshold: { ppm: 10_000, nanos: 10_000_000n },
    });
    expect(settingsOf({ drift_threshold_usd: "2.5" })).toEqual({
      ...DEFAULT_SETTINGS,
      driftThreshold: { ppm: 10_000, nanos: 2_500_000_000n },
    });
  });

  it("read percents to the ppm and amounts to the nano, and give them back as set", () => {
    const settings = settingsOf({
      tolerance_percent: 0.0001,
      tolerance_usd: "0.000000001",
      drift_threshold_percent: 12.5,
    });
    expect(settings.tolerance).toEqual({ ppm: 1, nanos: 1n });
    expect(settings.driftThreshold.ppm).toBe(125_000);
    const view = settingsView(settings);
    expect(view).toEqual({
      tolerance_percent: 0.0001,
      tolerance_usd: "0.000000001",
      drift_threshold_percent: 12.5,
      drift_threshold_usd: "0.010000000",
    });
    // As a client reading integers as BigInt gives a stored whole percent back.
    expect(settingsFromView({ ...view, drift_threshold_percent: 3n as unknown as number }).driftThreshold.ppm).toBe(
      30_000,
    );
  });

  it("refuse what is out of bounds or finer than they keep", () => {
    const ok = (body: unknown) => v.safeParse(ReconciliationSettingsSchema, body).success;
    expect(
      ok({ tolerance_percent: 0, tolerance_usd: "0", drift_threshold_percent: 100, drift_threshold_usd: "1000000" }),
    ).toBe(true);
    for (const body of [
      { tolerance_percent: 100.5 },
      { tolerance_percent: 0.00005 },
      { tolerance_usd: "-1" },
      { tolerance_usd: "0.0000000005" },
      { drift_threshold_usd: "1000000.000000001" },
      { drift_threshold_usd: "12345678" },
      { other: 1 },
    ]) {
      expect(ok(body), JSON.stringify(body)).toBe(false);
    }
  });
});
