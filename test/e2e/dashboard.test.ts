import { statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath } from "../setup/chromium.ts";
import { reportFixture } from "../setup/reports.ts";

const day = (d: number, hour: number) => `2026-03-0${d}T${String(hour).padStart(2, "0")}:00:00.000Z`;
const seeds = [1, 2, 3].flatMap((d) => [
  { received_at: day(d, 9), customer: "acme", context: { feature: "chat" }, cost_nanos: 1_200_000_000 * d },
  {
    received_at: day(d, 10),
    customer: "globex",
    model: "gpt-4o-mini",
    context: { feature: "search" },
    cost_nanos: 300_000_001,
  },
  {
    received_at: day(d, 11),
    customer: "initech",
    provider: "anthropic" as const,
    model: "claude-sonnet-4-5",
    context: { feature: "chat" },
    cost_nanos: 750_000_000,
  },
  { received_at: day(d, 12), customer: "acme", model: "mystery-1", status: "unpriced" as const },
]);

let fixture: Awaited<ReturnType<typeof reportFixture>>;
let browser: Browser;
let page: Page;
const range = "from=2026-03-01&to=2026-03-04";

beforeAll(async () => {
  const executablePath = chromiumPath();
  fixture = await reportFixture(["feature"], seeds);
  browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await fixture?.gateway.close();
});

const api = async (path: string) => (await fixture.get(path)).json();
const ready = () => page.waitForSelector("body[data-state=ready]");
const texts = (selector: string) => page.locator(selector).allInnerTexts();

describe("GET /dashboard in Chromium", () => {
  it("asks for a read key and refuses an ingest key", async () => {
    await page.goto(`${fixture.gateway.baseUrl}/dashboard?${range}`);
    await page.fill("#key", fixture.apiKey);
    await page.click("#key-form button");
    await page.waitForSelector("body[data-state=signed-out] #key-error:has-text('read key')");
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it("shows the API's exact totals, top customers and unpriced list", async () => {
    await page.fill("#key", fixture.readKey);
    await page.click("#key-form button");
    await ready();
    expect(await page.isHidden("#key-form")).toBe(true);
    const costs = await api(`/usage/costs?${range}`);
    expect(await page.textContent("#total-cost")).toBe(costs.totals.cost_usd);
    expect(costs.totals.cost_usd).toBe("10.350000003");
    expect(await page.textContent("#total-unpriced")).toBe("3");
    const customers = await api(`/usage/costs?${range}&group_by=billable_customer_id`);
    expect(await texts("#customers-table tbody tr")).toEqual(
      customers.groups.map((g: { key: { billable_customer_id: string }; cost_usd: string; transactions: number }) =>
        [g.key.billable_customer_id, g.cost_usd, g.transactions].join("\t"),
      ),
    );
    expect(await texts("#unpriced-table tbody tr")).toEqual(["openai\tmystery-1\tunknown_model\t3"]);
    expect(await page.evaluate(() => sessionStorage.getItem("usage-read-key"))).toBe(fixture.readKey);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
  });

  it("stacks cost per day by model or provider with Chart.js", async () => {
    const labels = () =>
      page.evaluate(() => {
        // biome-ignore lint/suspicious/noExplicitAny: the page's global Chart.js
        const chart = (window as any).Chart.getChart("over-time");
        return { days: chart.data.labels, series: chart.data.datasets.map((d: { label: string }) => d.label).sort() };
      });
    expect(await labels()).toEqual({
      days: ["2026-03-01", "2026-03-02", "2026-03-03"],
      series: ["claude-sonnet-4-5", "gpt-4o", "gpt-4o-mini", "mystery-1"],
    });
    await page.selectOption("#stack", "provider");
    await page.click("#controls button");
    await ready();
    expect((await labels()).series).toEqual(["anthropic", "openai"]);
  });

  it("filters by a declared dimension", async () => {
    await page.selectOption("select[name='context.feature']", "chat");
    await page.click("#controls button");
    await ready();
    const chat = await api(`/usage/costs?${range}&context.feature=chat`);
    expect(await page.textContent("#total-cost")).toBe(chat.totals.cost_usd);
    expect(chat.totals.cost_usd).toBe("9.450000000");
    await page.selectOption("select[name='context.feature']", "");
    await page.click("#controls button");
    await ready();
    const file = process.env.DASHBOARD_SCREENSHOT ?? join(tmpdir(), `dashboard-${process.pid}.png`);
    await page.screenshot({ path: file, fullPage: true });
    expect(statSync(file).size).toBeGreaterThan(10_000);
  });
});
