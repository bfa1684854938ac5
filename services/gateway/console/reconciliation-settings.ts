import { exactUsd, nanosOf } from "./exact-usd.ts";
import type { DayTotal } from "./reconciliation-days.ts";

/** `GET`, `PUT /v1/orgs/{org}/reconciliation/settings`: percents as numbers, amounts as decimal strings. */
export interface ReconciliationSettings {
  tolerance_percent: number;
  tolerance_usd: string;
  drift_threshold_percent: number;
  drift_threshold_usd: string;
  /** Null while the defaults hold. */
  updated_at: string | null;
  etag: string;
}

export const SETTING_FIELDS = [
  "tolerance_percent",
  "tolerance_usd",
  "drift_threshold_percent",
  "drift_threshold_usd",
] as const;
export type SettingField = (typeof SETTING_FIELDS)[number];

/** A share of the vendor's figure and an amount, as the API gives them. */
export interface Threshold {
  percent: number;
  usd: string;
}

export const toleranceOf = (settings: ReconciliationSettings): Threshold => ({
  percent: settings.tolerance_percent,
  usd: settings.tolerance_usd,
});
export const driftThresholdOf = (settings: ReconciliationSettings): Threshold => ({
  percent: settings.drift_threshold_percent,
  usd: settings.drift_threshold_usd,
});

const PERCENT = /^(\d+)(?:\.(\d{1,4}))?$/;

/** A percent (at most four places, as the API keeps them) in parts per million, read from its digits. */
export function ppmOf(percent: number): bigint {
  const match = PERCENT.exec(String(percent));
  if (!match) return BigInt(Math.round(percent * 10_000));
  return BigInt(match[1] as string) * 10_000n + BigInt((match[2] ?? "").padEnd(4, "0"));
}

/** A decimal without the zeros that say nothing ("0.010000000" is "0.01", "5.000000000" is "5"). */
export const plainDecimal = (decimal: string) =>
  /^-?\d+\.\d+$/.test(decimal) ? decimal.replace(/0+$/, "").replace(/\.$/, "") : decimal;

/** "1%" and "$0.01". */
export const percentText = (percent: number) => `${percent}%`;
export const usdText = (usd: string) => exactUsd(plainDecimal(usd));

/** How a day's totals stand against the drift threshold, judged as the `reconciliation.drift` alert does. */
export type DriftJudgement =
  | { state: "past"; settled: boolean; judgedFrom: string }
  | { state: "within" }
  | { state: "awaiting_cost" };

const DAY_MS = 86_400_000;
/** A day is judged once it ended six hours ago: the vendors' cost reports fill in overnight. */
const SETTLE_MS = 6 * 3_600_000;
const abs = (n: bigint) => (n < 0n ? -n : n);

/**
 * Whether a day's total differs from the vendor's by more than the threshold's share of the vendor's total
 * and by more than its amount (packages/reconciliation, drift-events.ts). A day with a row the vendor has
 * not costed yet is not judged; a day past it is said with the time from which the alert judges it.
 * Amounts are compared as nano-USD, never as floats.
 */
export function driftJudgement(total: DayTotal, threshold: Threshold, now = Date.now()): DriftJudgement {
  if (total.awaiting_cost > 0) return { state: "awaiting_cost" };
  const reported = nanosOf(total.vendor_usd) ?? 0n;
  const difference = abs(nanosOf(total.difference_usd) ?? 0n);
  const allowed = (abs(reported) * ppmOf(threshold.percent)) / 1_000_000n;
  const floor = nanosOf(threshold.usd) ?? 0n;
  if (difference <= allowed || difference <= floor) return { state: "within" };
  const judgedAt = Date.parse(`${total.day}T00:00:00Z`) + DAY_MS + SETTLE_MS;
  return { state: "past", settled: judgedAt <= now, judgedFrom: new Date(judgedAt).toISOString().slice(0, 16) };
}

/** What a judgement says in the days' table. */
export function judgementText(judgement: DriftJudgement): string {
  if (judgement.state === "awaiting_cost") return "not judged until the vendor's cost is in";
  if (judgement.state === "within") return "within the threshold";
  if (judgement.settled) return "past the threshold";
  return `past the threshold; judged from ${judgement.judgedFrom.replace("T", " ")} UTC`;
}

/** The rule each setting makes, in words: the page states them, never a fixed text. */
export const toleranceText = ({ percent, usd }: Threshold) =>
  `each token count within ${percentText(percent)} of the vendor's, and the cost within ${percentText(percent)} or ${usdText(usd)}, whichever is larger`;
export const driftThresholdText = ({ percent, usd }: Threshold) =>
  `differs from the vendor's by more than ${percentText(percent)} of the vendor's total and by more than ${usdText(usd)}`;

/**
 * The form's texts as the body of `PUT`: a field left empty is left out (it takes its default), a percent
 * written as a plain decimal is sent as a number, anything else as typed, for the server to refuse with
 * its reason beside the field.
 */
export function settingsBody(typed: Record<SettingField, string>): Record<string, number | string> {
  const body: Record<string, number | string> = {};
  for (const name of SETTING_FIELDS) {
    const text = typed[name].trim();
    if (!text) continue;
    body[name] = name.endsWith("_percent") && /^\d+(?:\.\d+)?$/.test(text) ? Number(text) : text;
  }
  return body;
}
