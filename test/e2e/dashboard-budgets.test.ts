import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { chromiumPath } from "../setup/chromium.ts";
import { firestore } from "../setup/harness.ts";
import { reportFixture } from "../setup/reports.ts";

// Budgets on the dashboard, as of a fixed instant: two customers' spend on 2026-10-25 (UTC).
const NOW = new Date("2026-10-25T18:00:00.000Z");
const seeds = [
  {
    received_at: "2026-10-25T09:00:00.000Z",
    customer: "acme",
    context: { feature: "chat" },
    cost_nanos: 1_800_000_000,
  },
  { received_at: "2026-10-25T10:00:00.000Z", customer: "globex", cost_nanos: 250_000_001 },
];

let fixture: Awaited<ReturnType<typeof reportFixture>>;
let browser: Browser;
let page: Page;
const admin = (...args: string[]) => runAdmin(args, firestore(), () => {});

beforeAll(async () => {
  const executablePath = chromiumPath();
  fixture = await reportFixture(["feature"], seeds, { now: () => NOW });
  const org = fixture.organizationId;
  await admin(
    "budget",
    "create",
    org,
    "--id",
    "acme-day",
    "--name",
    "Acme daily",
    "--amount",
    "2",
    "--period",
    "day",
    "--customer",
    "acme",
  );
  await admin(
    "budget",
    "create",
    org,
    "--id",
    "whole-month",
    "--amount",
    "100",
    "--period",
    "month",
    "--time-zone",
    "Europe/Paris",
  );
  browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
  page = await browser.newPage({ viewport: { width: 1280, height: 1200 } });
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await fixture?.gateway.close();
});

describe("the dashboard's budgets", () => {
  it("lists each budget with its spent, amount, share used, thresholds crossed and forecast", async () => {
    await page.goto(`${fixture.gateway.baseUrl}/dashboard?from=2026-10-25&to=2026-10-26`);
    await page.fill("#key", fixture.readKey);
    await page.click("#key-form button");
    await page.waitForSelector("body[data-state=ready]");
    expect(await page.locator("#budgets-table tbody tr").allInnerTexts()).toEqual([
      "Acme daily\tcustomer acme\tday (UTC), from 2026-10-25T00:00Z\t$1.80\t$2.00\t90.00%\t50%, 80%\t$2.40",
      "whole-month\twhole organization\tmonth (Europe/Paris), from 2026-09-30T22:00Z\t$2.05\t$100.00\t2.05%\tnone\t$2.56",
    ]);
    // The exact figures on hover, as everywhere on the page.
    const spent = page.locator("#budgets-table tbody tr:nth-child(2) td:nth-child(4)");
    expect(await spent.getAttribute("title")).toBe("2.050000001");
    expect(await page.locator("#budgets-table tbody tr:nth-child(1) td:nth-child(6)").getAttribute("class")).toBe(
      "number crossed",
    );
  });
});
