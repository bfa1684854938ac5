import { checkWithCode, decimal, isDecimalString, nanosToUsd, toNanos } from "@usage-ingestion/shared";
import * as v from "valibot";
import { DEFAULT_TOLERANCE, type Tolerance } from "./compare.ts";

/**
 * An organization's reconciliation settings (`GET`, `PUT /v1/orgs/{org}/reconciliation/settings`,
 * `admin org reconciliation set`): how far our figures and a vendor's may be apart and a row still be
 * `matched`, and how far a day's totals may be apart before it is alerted (`reconciliation.drift`). Each is
 * a share of the vendor's figure or an amount, whichever is larger; the defaults are 1% and $0.01.
 */
export interface ReconciliationSettings {
  tolerance: Tolerance;
  driftThreshold: Tolerance;
}

export const DEFAULT_SETTINGS: ReconciliationSettings = {
  tolerance: DEFAULT_TOLERANCE,
  driftThreshold: DEFAULT_TOLERANCE,
};

/** The largest amount either may be: far above a day's drift anyone would want told about. */
export const MAX_SETTING_USD = "1000000";
const MAX_SETTING_NANOS = 1_000_000n * 1_000_000_000n;
const AMOUNT = /^\d{1,7}(?:\.\d{1,9})?$/;

const percent = v.pipe(
  v.number("must be a number of percent, such as 1 or 0.5"),
  v.minValue(0, "must be at least 0"),
  v.maxValue(100, "must be at most 100"),
  checkWithCode<number>(
    "invalid_format",
    (value) => Math.abs(value * 10_000 - Math.round(value * 10_000)) < 1e-6,
    "must have at most 4 decimal places",
  ),
);
const usd = v.pipe(
  v.string('must be a decimal string of US dollars, such as "0.01"'),
  checkWithCode<string>(
    "invalid_format",
    (text) => AMOUNT.test(text) && isDecimalString(text),
    'must be a decimal string of US dollars with at most 9 decimal places, such as "0.01"',
  ),
  checkWithCode<string>(
    "too_large",
    (text) => !AMOUNT.test(text) || toNanos(decimal(text)) <= MAX_SETTING_NANOS,
    `must be at most ${MAX_SETTING_USD}`,
  ),
);

/** The body of `PUT .../reconciliation/settings`: each field absent takes its default (1% and $0.01). */
export const ReconciliationSettingsSchema = v.strictObject(
  {
    tolerance_percent: v.optional(
      v.pipe(
        percent,
        v.description(
          "A row is `matched` when each token count and the cost are within this share of the vendor's (default 1).",
        ),
      ),
    ),
    tolerance_usd: v.optional(
      v.pipe(usd, v.description('...or the cost within this amount, whichever is larger (default "0.01").')),
    ),
    drift_threshold_percent: v.optional(
      v.pipe(
        percent,
        v.description("A day is alerted when its total differs from the vendor's by more than this share (default 1)."),
      ),
    ),
    drift_threshold_usd: v.optional(v.pipe(usd, v.description('...and by more than this amount (default "0.01").'))),
  },
  "holds an unknown field",
);
export type ReconciliationSettingsInput = v.InferOutput<typeof ReconciliationSettingsSchema>;

/** The settings as stored and answered: percents as numbers, amounts as nine-place decimal strings. */
export interface ReconciliationSettingsView {
  tolerance_percent: number;
  tolerance_usd: string;
  drift_threshold_percent: number;
  drift_threshold_usd: string;
}

const ppmOf = (value: number) => Math.round(value * 10_000);

export function settingsView(settings: ReconciliationSettings): ReconciliationSettingsView {
  return {
    tolerance_percent: settings.tolerance.ppm / 10_000,
    tolerance_usd: nanosToUsd(settings.tolerance.nanos),
    drift_threshold_percent: settings.driftThreshold.ppm / 10_000,
    drift_threshold_usd: nanosToUsd(settings.driftThreshold.nanos),
  };
}

/** The settings a checked body gives (each field absent, its default). */
export function settingsOf(input: ReconciliationSettingsInput): ReconciliationSettings {
  const { tolerance, driftThreshold } = DEFAULT_SETTINGS;
  return {
    tolerance: {
      ppm: input.tolerance_percent === undefined ? tolerance.ppm : ppmOf(input.tolerance_percent),
      nanos: input.tolerance_usd === undefined ? tolerance.nanos : toNanos(decimal(input.tolerance_usd)),
    },
    driftThreshold: {
      ppm: input.drift_threshold_percent === undefined ? driftThreshold.ppm : ppmOf(input.drift_threshold_percent),
      nanos:
        input.drift_threshold_usd === undefined ? driftThreshold.nanos : toNanos(decimal(input.drift_threshold_usd)),
    },
  };
}

/** A view as stored: a client reading integers as BigInt gives a whole percent back as one. */
export const storedView = <T extends ReconciliationSettingsView>(stored: T): T => ({
  ...stored,
  tolerance_percent: Number(stored.tolerance_percent),
  drift_threshold_percent: Number(stored.drift_threshold_percent),
});

/** The settings a stored view gives: what a run reads. */
export const settingsFromView = (view: ReconciliationSettingsView): ReconciliationSettings =>
  settingsOf(storedView(view));
