import { budgetStatuses } from "@usage-ingestion/budgets";
import { firestoreReportSource, foldDue, ReportCeiling } from "@usage-ingestion/reports";
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { seedUsage } from "../../scripts/lib/seed-usage.ts";
import { budgetOf, sendUnits } from "../setup/budgets.ts";
import { firestore, reportsFirestore, uniqueId } from "../setup/harness.ts";

async function admin(...args: string[]) {
  const lines: string[] = [];
  await runAdmin(args, firestore(), (line) => lines.push(line));
  return lines;
}

/** An organization declaring `feature`, where custom/house costs $0.25 a unit. */
async function organization() {
  const org = uniqueId("budgets");
  await admin("org", "create", org);
  await admin("org", "dimensions", "set", org, "feature");
  await admin("pricing", "add", org, '{"provider":"custom","model":"house","unit":"0.25"}');
  return org;
}

const source = () => firestoreReportSource(reportsFirestore());
const NOW = new Date("2026-10-25T15:00:00.000Z");

describe("budget spent", () => {
  it("is exact from the billable records: a duplicate and a conflict never count, a re-pricing moves it", async () => {
    const org = await organization();
    const chat = { billable_customer_id: "acme", feature: "chat" };
    expect(await sendUnits(org, "2026-10-25T09:00:00.000Z", 4, chat, { transaction_id: "r1" })).toBe("priced");
    // The same id again: a duplicate; the same id with other content: a conflict. Neither is billed.
    expect(await sendUnits(org, "2026-10-25T09:01:00.000Z", 4, chat, { transaction_id: "r1" })).toBe("duplicate");
    expect(await sendUnits(org, "2026-10-25T09:02:00.000Z", 40, chat, { transaction_id: "r1" })).toBe("conflict");
    expect(await sendUnits(org, "2026-10-25T10:00:00.000Z", 2, { billable_customer_id: "globex" })).toBe("priced");
    expect(
      await sendUnits(org, "2026-10-25T11:00:00.000Z", 3, { billable_customer_id: "acme" }, { model: "house-2" }),
    ).toBe("unpriced");
    // Yesterday (UTC) and outside every daily period here.
    expect(await sendUnits(org, "2026-10-24T10:00:00.000Z", 100, chat)).toBe("priced");

    const budgets = [
      budgetOf({ amount_usd: "2", period: "day" }, "whole"),
      budgetOf({ amount_usd: "1", period: "day", thresholds: [50, 100, 120], scope: { customer: "acme" } }, "acme"),
      budgetOf({ amount_usd: "4", period: "day", scope: { dimension: { name: "feature", value: "chat" } } }, "chat"),
      budgetOf({ amount_usd: "10", period: "day", scope: { provider: "custom", model: "house-2" } }, "house2"),
      budgetOf({ amount_usd: "1000", period: "week" }, "week"),
    ];
    const read = new ReportCeiling();
    const first = await budgetStatuses(source(), org, budgets, NOW, read);
    expect(first.map((status) => [status.id, status.spent_usd, status.percent, status.thresholds_crossed])).toEqual([
      ["whole", "1.500000000", "75.00", [50]],
      ["acme", "1.000000000", "100.00", [50, 100]],
      ["chat", "1.000000000", "25.00", []],
      ["house2", "0.000000000", "0.00", []],
      ["week", "26.500000000", "2.65", []],
    ]);
    expect(first[1]).toMatchObject({
      amount_usd: "1.000000000",
      remaining_usd: "0.000000000",
      current_period: { start: "2026-10-25T00:00:00.000Z", end: "2026-10-26T00:00:00.000Z" },
      as_of: NOW.toISOString(),
    });
    // The four daily budgets share one report of today's roll-up shards: they read what one alone reads.
    const daily = new ReportCeiling();
    await budgetStatuses(source(), org, budgets.slice(0, 4), NOW, daily);
    const alone = new ReportCeiling();
    await budgetStatuses(source(), org, budgets.slice(0, 1), NOW, alone);
    expect(daily.documentsRead).toBe(alone.documentsRead);
    // Today's cells (acme chat, globex, acme house-2, the conflict), one shard each here, and the change
    // marks these records left, stored a year after they were received.
    expect(alone.documentsRead).toBeLessThanOrEqual(10);
    expect(read.documentsRead).toBeLessThanOrEqual(alone.documentsRead + 16);

    // A price for house-2 and a re-pricing: 3 units at $1 join acme's spent.
    await admin("pricing", "add", org, '{"provider":"custom","model":"house-2","unit":"1"}');
    await admin("reprice", org);
    const after = await budgetStatuses(source(), org, budgets, NOW);
    expect(after.map((status) => [status.id, status.spent_usd])).toEqual([
      ["whole", "4.500000000"],
      ["acme", "4.000000000"],
      ["chat", "1.000000000"],
      ["house2", "3.000000000"],
      ["week", "29.500000000"],
    ]);
    expect(after[1]?.thresholds_crossed).toEqual([50, 100, 120]);
  });

  it("reads a Paris day, 25 hours long on 2026-10-25, from 22:00 UTC the day before", async () => {
    const org = await organization();
    const who = { billable_customer_id: "acme" };
    expect(await sendUnits(org, "2026-10-24T21:59:59.999Z", 1, who)).toBe("priced"); // the 24th in Paris
    expect(await sendUnits(org, "2026-10-24T22:00:00.000Z", 2, who)).toBe("priced"); // 00:00 on the 25th
    expect(await sendUnits(org, "2026-10-25T22:59:59.999Z", 4, who)).toBe("priced"); // 23:59:59 on the 25th
    const paris = budgetOf({ amount_usd: "10", period: "day", time_zone: "Europe/Paris" });
    const [before] = await budgetStatuses(source(), org, [paris], new Date("2026-10-25T22:30:00.000Z"));
    expect(before).toMatchObject({
      current_period: { start: "2026-10-24T22:00:00.000Z", end: "2026-10-25T23:00:00.000Z" },
      spent_usd: "1.500000000",
    });
    expect(await sendUnits(org, "2026-10-25T23:00:00.000Z", 8, who)).toBe("priced"); // the 26th in Paris
    const [next] = await budgetStatuses(source(), org, [paris], new Date("2026-10-25T23:30:00.000Z"));
    expect(next).toMatchObject({
      current_period: { start: "2026-10-25T23:00:00.000Z", end: "2026-10-26T23:00:00.000Z" },
      spent_usd: "2.000000000",
    });
  });

  it("reads a few documents per budget once the past days are folded, not the records", async () => {
    const org = await organization();
    const customers = ["acme", "globex", "initech"];
    const seeds = Array.from({ length: 21 }, (_, index) => index + 1).flatMap((day) =>
      customers.flatMap((customer) =>
        [9, 15].map((hour) => ({
          received_at: `2026-10-${String(day).padStart(2, "0")}T${hour}:00:00.000Z`,
          customer,
          cost_nanos: 1_000_000,
        })),
      ),
    );
    await seedUsage(firestore(), org, ["feature"], seeds);
    const now = new Date("2026-10-21T18:00:00.000Z");
    await foldDue(reportsFirestore(), now.getTime(), {
      lookbackDays: 35,
      lookbackHours: 48,
      maxFolds: 200,
      organizationIds: [org],
    });
    const budgets = [
      budgetOf({ amount_usd: "1", period: "month" }, "org-month"),
      ...customers.map((customer) => budgetOf({ amount_usd: "1", period: "month", scope: { customer } }, customer)),
      budgetOf({ amount_usd: "1", period: "month", scope: { provider: "openai", model: "gpt-4o" } }, "gpt-4o"),
    ];
    const read = new ReportCeiling();
    const statuses = await budgetStatuses(source(), org, budgets, now, read);
    expect(statuses.map((status) => status.spent_usd)).toEqual([
      "0.126000000",
      "0.042000000",
      "0.042000000",
      "0.042000000",
      "0.126000000",
    ]);
    // 20 folded days, one summary part each, and today's shards (3 customers' cells, up to 16 shards
    // each, here at most 6 records): about 26 documents for 5 budgets, whatever the records.
    expect(read.documentsRead).toBeLessThanOrEqual(20 + 6);
  });

  it("holds groups for the values budgets name only, whatever the data holds", async () => {
    const org = await organization();
    // 12 customers on 3 models: 36 cells today, far past a ceiling of 8 groups.
    for (const [c, customer] of ["acme", ...Array.from({ length: 11 }, (_, i) => `c${i}`)].entries()) {
      for (const model of ["house", "house-b", "house-c"]) {
        await admin("pricing", "add", org, `{"provider":"custom","model":"${model}","unit":"0.25"}`);
        await sendUnits(org, "2026-10-25T09:00:00.000Z", c + 1, { billable_customer_id: customer }, { model });
      }
    }
    const budgets = [
      budgetOf({ amount_usd: "100", period: "day" }, "whole"),
      budgetOf({ amount_usd: "100", period: "day", scope: { customer: "acme" } }, "acme"),
      budgetOf({ amount_usd: "100", period: "day", scope: { model: "house-b" } }, "house-b"),
    ];
    // Grouped by customer and model, only acme and house-b are kept apart: at most 2 x 2 groups.
    const tight = new ReportCeiling({ maxDocuments: 1_000, timeoutMs: 30_000, maxGroups: 4 });
    const statuses = await budgetStatuses(source(), org, budgets, NOW, tight);
    // Units: customer k (acme is 1) sends k units on each model: 3 x (1 + ... + 12) = 234 units x $0.25;
    // acme 3 units; house-b 1 + ... + 12 = 78 units.
    expect(statuses.map((status) => [status.id, status.spent_usd])).toEqual([
      ["whole", "58.500000000"],
      ["acme", "0.750000000"],
      ["house-b", "19.500000000"],
    ]);
  });
});
