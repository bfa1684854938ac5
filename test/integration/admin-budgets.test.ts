import { createBudget, deleteBudget, MAX_BUDGETS_PER_ORGANIZATION } from "@usage-ingestion/budgets";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { firestore, reportsFirestore, uniqueId } from "../setup/harness.ts";

async function admin(...args: string[]) {
  const lines: string[] = [];
  await runAdmin(args, firestore(), (line) => lines.push(line), { reportsDb: reportsFirestore() });
  return lines;
}

async function newOrg() {
  const org = uniqueId("acme");
  await admin("org", "create", org);
  await admin("org", "dimensions", "set", org, "feature");
  return org;
}

describe("admin budget", () => {
  it("creates, lists, shows, updates and deletes a budget", async () => {
    const org = await newOrg();
    expect(
      await admin(
        "budget",
        "create",
        org,
        "--id",
        "chat-paris",
        "--amount",
        "250.5",
        "--period",
        "month",
        "--time-zone",
        "Europe/Paris",
        "--thresholds",
        "100,50,120",
        "--customer",
        "acme",
        "--dimension",
        "feature=chat",
        "--name",
        "Chat",
      ),
    ).toEqual([
      `created budget chat-paris of ${org}: chat-paris\tmonth\tEurope/Paris\t250.500000000\t50,100,120\tcustomer=acme,context.feature=chat\tChat`,
    ]);
    const [created] = await admin("budget", "create", org, "--amount", "10", "--period", "7d");
    const generated = /created budget (bud_[0-9a-f]{16}) /.exec(created as string)?.[1] as string;
    expect(generated).toBeDefined();
    expect(await admin("budget", "list", org)).toEqual([
      generated < "chat-paris" ? expect.stringContaining(generated) : expect.stringContaining("chat-paris"),
      generated < "chat-paris" ? expect.stringContaining("chat-paris") : expect.stringContaining(generated),
    ]);
    expect((await admin("budget", "list", org)).find((line) => line.startsWith(generated))).toBe(
      `${generated}\t7d\tUTC\t10.000000000\t50,80,100\torganization\t-`,
    );

    const shown = JSON.parse((await admin("budget", "show", org, "chat-paris")).join("\n"));
    expect(shown).toMatchObject({
      id: "chat-paris",
      scope: { customer: "acme", dimension: { name: "feature", value: "chat" } },
      spent_usd: "0.000000000",
      remaining_usd: "250.500000000",
      percent: "0.00",
      thresholds_crossed: [],
    });

    expect(await admin("budget", "update", org, "chat-paris", "--amount", "300", "--whole-organization")).toEqual([
      `updated budget chat-paris of ${org}: chat-paris\tmonth\tEurope/Paris\t300.000000000\t50,100,120\torganization\tChat`,
    ]);
    const stored = (await firestore().doc(DOCUMENT_PATHS.budget(org, "chat-paris")).get()).data();
    expect(stored).toMatchObject({ amount_usd: "300.000000000", scope: {}, created_at: shown.created_at });

    expect(await admin("budget", "delete", org, "chat-paris")).toEqual([`deleted budget chat-paris of ${org}`]);
    expect(await admin("budget", "list", org)).toHaveLength(1);
    await expect(admin("budget", "show", org, "chat-paris")).rejects.toThrow(/budget chat-paris of .* does not exist/);
  });

  it("names the flag of each bad value", async () => {
    const org = await newOrg();
    const fails = (...args: string[]) => admin("budget", "create", org, ...args).catch((error: Error) => error.message);
    expect(await fails("--period", "month")).toBe("--amount: amount_usd is required");
    expect(await fails("--amount", "1.5", "--period", "year")).toMatch(/^--period: period must be day, week, month/);
    expect(await fails("--amount", "1", "--period", "day", "--time-zone", "Europe/Nowhere")).toMatch(/^--time-zone:/);
    expect(await fails("--amount", "1", "--period", "day", "--thresholds", "50,fifty")).toMatch(/^--thresholds:/);
    expect(await fails("--amount", "1", "--period", "day", "--dimension", "team=red")).toMatch(
      /--dimension: team is not a declared context dimension .*declared: feature/,
    );
    expect(await fails("--amount", "1", "--period", "day", "--provider", "acme")).toMatch(/^--provider:/);
    await admin("budget", "create", org, "--id", "one", "--amount", "1", "--period", "day");
    expect(await fails("--id", "one", "--amount", "1", "--period", "day")).toMatch(/budget one of .* already exists/);
    expect(await fails("--id", "a/b", "--amount", "1", "--period", "day")).toMatch(/^--id:/);
    await expect(admin("budget", "create", "no-such-org", "--amount", "1", "--period", "day")).rejects.toThrow(
      /organization "no-such-org" does not exist/,
    );
    await expect(admin("budget", "update", org, "one", "--thresholds", "")).rejects.toThrow(/^--thresholds:/);
    await expect(admin("budget", "update", org, "one")).rejects.toThrow(/at least one field/);
    await expect(admin("budget", "update", org, "one", "--id", "two")).rejects.toThrow(/unknown option --id/);
    await expect(admin("budget", "list")).rejects.toThrow(/^usage: npm run admin -- budget list <org-id>$/);
  });

  it("holds the per-organization limit and the organization's mark under creates and deletes at once", async () => {
    const org = await newOrg();
    const input = { amount_usd: "10", period: "day" };
    // Up to three short of the limit, then six creates at once: three are kept, three refused by the limit.
    for (let i = 0; i < MAX_BUDGETS_PER_ORGANIZATION - 3; i++) await createBudget(firestore(), org, input, `b${i}`);
    const creates = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => createBudget(firestore(), org, input, `at-once-${i}`)),
    );
    expect(creates.filter((each) => each.status === "fulfilled")).toHaveLength(3);
    for (const refused of creates.filter((each) => each.status === "rejected")) {
      expect(String((refused as PromiseRejectedResult).reason)).toMatch(/the most one organization may/);
    }
    const held = await firestore().collection(DOCUMENT_PATHS.budgets(org)).count().get();
    expect(held.data().count).toBe(MAX_BUDGETS_PER_ORGANIZATION);

    // The last budgets deleted while one more is created: the organization stays marked while one is left.
    const ids = (await firestore().collection(DOCUMENT_PATHS.budgets(org)).get()).docs.map((doc) => doc.id);
    for (const id of ids.slice(3)) await deleteBudget(firestore(), org, id);
    await Promise.all([
      ...ids.slice(0, 3).map((id) => deleteBudget(firestore(), org, id)),
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        await createBudget(firestore(), org, input, "late");
      })(),
    ]);
    const organization = (await firestore().doc(DOCUMENT_PATHS.organization(org)).get()).data();
    expect(organization?.has_budgets).toBe(true);
    await deleteBudget(firestore(), org, "late");
    expect((await firestore().doc(DOCUMENT_PATHS.organization(org)).get()).data()?.has_budgets).toBe(false);
  }, 120_000);
});
