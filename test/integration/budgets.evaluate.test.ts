import type { EventDocument } from "@usage-ingestion/budgets";
import { evaluateBudgets } from "@usage-ingestion/budgets";
import { DEFAULT_REPORT_LIMITS } from "@usage-ingestion/reports";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { sendUnits } from "../setup/budgets.ts";
import { firestore, reportsFirestore, uniqueId } from "../setup/harness.ts";

const admin = (...args: string[]) => runAdmin(args, firestore(), () => {});

/** An organization where custom/house costs $0.25 a unit, with the budgets `budgets` creates. */
async function organization(...budgets: string[][]) {
  const org = uniqueId("alerts");
  await admin("org", "create", org);
  await admin("pricing", "add", org, '{"provider":"custom","model":"house","unit":"0.25"}');
  for (const flags of budgets) await admin("budget", "create", org, ...flags);
  return org;
}

/** One evaluator, as one instance of the scheduled function: its own memory of the events it knows. */
const evaluator = (org: string) => {
  const known = new Set<string>();
  return (at: string) =>
    evaluateBudgets(reportsFirestore(), new Date(at), {
      limits: DEFAULT_REPORT_LIMITS,
      organizationIds: [org],
      known,
    });
};

async function events(org: string): Promise<EventDocument[]> {
  const snap = await firestore().collection(DOCUMENT_PATHS.events(org)).orderBy("__name__").get();
  return snap.docs.map((doc) => doc.data() as EventDocument);
}

const acme = { billable_customer_id: "acme" };

describe("the budget evaluation step", () => {
  it("creates each crossing's event once under two concurrent evaluators and a restart", async () => {
    const org = await organization(["--id", "acme", "--amount", "2", "--period", "day", "--customer", "acme"]);
    await sendUnits(org, "2026-10-25T09:00:00.000Z", 8, acme); // $2.00: 100%
    await sendUnits(org, "2026-10-25T09:30:00.000Z", 40, { billable_customer_id: "globex" }); // not acme's

    const [one, two] = await Promise.all([
      evaluator(org)("2026-10-25T15:00:00.000Z"),
      evaluator(org)("2026-10-25T15:00:00.000Z"),
    ]);
    const ids = [
      "acme_20261025T000000Z_forecast",
      "acme_20261025T000000Z_t100",
      "acme_20261025T000000Z_t50",
      "acme_20261025T000000Z_t80",
    ];
    expect([...one.created, ...two.created].sort()).toEqual(ids);
    expect(one.created.filter((id) => two.created.includes(id))).toEqual([]);
    // A restarted evaluator (nothing remembered) finds them all there.
    expect((await evaluator(org)("2026-10-25T15:01:00.000Z")).created).toEqual([]);

    const stored = await events(org);
    expect(stored.map((event) => event.id)).toEqual(ids);
    expect(stored[1]).toEqual({
      id: "acme_20261025T000000Z_t100",
      type: "budget.threshold_crossed",
      created_at: "2026-10-25T15:00:00.000Z",
      data: {
        budget_id: "acme",
        budget_name: null,
        organization_id: org,
        scope: { customer: "acme" },
        period: { start: "2026-10-25T00:00:00.000Z", end: "2026-10-26T00:00:00.000Z" },
        amount_usd: "2.000000000",
        spent_usd: "2.000000000",
        percent: "100.00",
        threshold_percent: 100,
      },
      dispatched_at: null,
    });
    expect(stored[0]).toMatchObject({ type: "budget.forecast_exceeded", data: { forecast_usd: "3.200000000" } });
    expect(stored[0]?.data).not.toHaveProperty("threshold_percent");
  });

  it("fires on a re-pricing that raises spent, never un-sends, and fires again in the next period", async () => {
    const org = await organization(["--id", "b", "--amount", "10", "--period", "day", "--thresholds", "50,100"]);
    const evaluate = evaluator(org);
    await sendUnits(org, "2026-10-25T09:00:00.000Z", 4, acme); // $1
    await sendUnits(org, "2026-10-25T10:00:00.000Z", 5, acme, { model: "house-2" }); // unpriced
    expect((await evaluate("2026-10-25T12:00:00.000Z")).created).toEqual([]);

    await admin("pricing", "add", org, '{"provider":"custom","model":"house-2","unit":"1"}');
    await admin("reprice", org); // $1 + $5 = 60%, and on course for about $12 by midnight
    expect((await evaluate("2026-10-25T12:01:00.000Z")).created).toEqual([
      "b_20261025T000000Z_t50",
      "b_20261025T000000Z_forecast",
    ]);

    // A larger amount puts spent back under 50%: what was sent stays sent, nothing new fires.
    await admin("budget", "update", org, "b", "--amount", "100");
    expect((await evaluate("2026-10-25T12:02:00.000Z")).created).toEqual([]);
    expect((await events(org)).map((event) => event.id)).toEqual([
      "b_20261025T000000Z_forecast",
      "b_20261025T000000Z_t50",
    ]);

    // The next day is a new period: the same threshold fires again.
    await admin("budget", "update", org, "b", "--amount", "10");
    await sendUnits(org, "2026-10-26T08:00:00.000Z", 24, acme); // $6 on the 26th
    expect((await evaluate("2026-10-26T12:00:00.000Z")).created).toEqual([
      "b_20261026T000000Z_t50",
      "b_20261026T000000Z_forecast",
    ]);
  });

  it("rolls a Paris day over at local midnight on the day summer time ends", async () => {
    const org = await organization([
      "--id",
      "paris",
      "--amount",
      "1",
      "--period",
      "day",
      "--time-zone",
      "Europe/Paris",
      "--thresholds",
      "100",
    ]);
    const evaluate = evaluator(org);
    // 23:30 in Paris on the 25th (UTC+1 since 03:00 that morning): the last hour of a 25-hour day.
    await sendUnits(org, "2026-10-25T22:30:00.000Z", 4, acme);
    expect((await evaluate("2026-10-25T22:45:00.000Z")).created).toEqual([
      "paris_20261024T220000Z_t100",
      "paris_20261024T220000Z_forecast",
    ]);
    // 00:01 on the 26th in Paris: a new day, whose spend starts from zero.
    expect((await evaluate("2026-10-25T23:01:00.000Z")).created).toEqual([]);
    await sendUnits(org, "2026-10-25T23:05:00.000Z", 4, acme);
    // Ten minutes into the day is too early to forecast: the threshold alone fires.
    expect((await evaluate("2026-10-25T23:10:00.000Z")).created).toEqual(["paris_20261025T230000Z_t100"]);
    const stored = (await events(org)).filter((event) => event.type === "budget.threshold_crossed");
    expect(stored.map((event) => event.data.period)).toEqual([
      { start: "2026-10-24T22:00:00.000Z", end: "2026-10-25T23:00:00.000Z" },
      { start: "2026-10-25T23:00:00.000Z", end: "2026-10-26T23:00:00.000Z" },
    ]);
  });

  it("finds the organizations that hold budgets by themselves", async () => {
    const org = await organization(["--id", "x", "--amount", "1", "--period", "day", "--thresholds", "100"]);
    await sendUnits(org, "2026-10-25T09:00:00.000Z", 4, acme);
    const run = await evaluateBudgets(reportsFirestore(), new Date("2026-10-25T09:30:00.000Z"), {
      limits: DEFAULT_REPORT_LIMITS,
    });
    expect(run.created).toContain("x_20261025T000000Z_t100");
    expect(run.failed).toEqual([]);
    await admin("budget", "delete", org, "x");
    const after = await evaluateBudgets(reportsFirestore(), new Date("2026-10-26T09:30:00.000Z"), {
      limits: DEFAULT_REPORT_LIMITS,
      organizationIds: [org],
    });
    expect(after.organizations).toBe(0);
  });
});
