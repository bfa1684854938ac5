import { statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page, type Response } from "playwright-core";
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
const titles = (selector: string) =>
  page.locator(selector).evaluateAll((cells) => cells.map((cell) => cell.getAttribute("title")));

/** Every failed request, answer of 400 or more, console error and uncaught error on `on` from now on. */
function problems(on: Page) {
  const seen: string[] = [];
  on.on("requestfailed", (request) => seen.push(`failed ${request.url()}: ${request.failure()?.errorText}`));
  on.on("response", (response) => {
    if (response.status() >= 400) seen.push(`${response.status()} ${response.url()}`);
  });
  on.on("console", (message) => {
    if (message.type() === "error") seen.push(`console: ${message.text()}`);
  });
  on.on("pageerror", (error) => seen.push(`page: ${error.message}`));
  return seen;
}

describe("GET /dashboard in Chromium", () => {
  it("asks for a read key and refuses an ingest key", async () => {
    await page.goto(`${fixture.gateway.baseUrl}/dashboard?${range}`);
    await page.fill("#key", fixture.apiKey);
    await page.click("#key-form button");
    await page.waitForSelector("body[data-state=signed-out] #key-error:has-text('read key')");
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it("shows totals, top customers in dollars and cents with the API's exact figures on hover", async () => {
    await page.fill("#key", fixture.readKey);
    await page.click("#key-form button");
    await ready();
    expect(await page.isHidden("#key-form")).toBe(true);
    const costs = await api(`/usage/costs?${range}`);
    // 3 x (1.2 + 2.4 + 3.6) / 3 days of acme, 3 x 0.300000001 of globex, 3 x 0.75 of initech.
    expect(costs.totals.cost_usd).toBe("10.350000003");
    expect(await page.textContent("#total-cost")).toBe("$10.35");
    expect(await page.getAttribute("#total-cost", "title")).toBe("10.350000003");
    expect(await page.textContent("#total-unpriced")).toBe("3");
    const customers = await api(`/usage/costs?${range}&group_by=billable_customer_id`);
    const exact = customers.groups.map((g: { cost_usd: string }) => g.cost_usd);
    expect(exact).toEqual(["7.200000000", "2.250000000", "0.900000003"]);
    expect(await texts("#customers-table tbody tr")).toEqual([
      "acme\t$7.20\t6",
      "initech\t$2.25\t3",
      "globex\t$0.90\t3",
    ]);
    expect(await titles("#customers-table tbody td:nth-child(2)")).toEqual(exact);
    expect(await page.getAttribute("#customers-table", "title")).toMatch(/rounded.*exact figure/);
    await page.hover("#customers-table tbody tr:nth-child(3) td:nth-child(2)");
    expect(await page.locator("td:hover").getAttribute("title")).toBe("0.900000003");
    expect(await texts("#unpriced-table tbody tr")).toEqual(["openai\tmystery-1\tunknown_model\t3"]);
    expect(await page.evaluate(() => sessionStorage.getItem("usage-read-key"))).toBe(fixture.readKey);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
  });

  it("shows a bar's cost in dollars and cents with its exact figure in the chart's tooltip", async () => {
    const tooltip = (day: string, series: string) =>
      page.evaluate(
        ([day, series]) => {
          // biome-ignore lint/suspicious/noExplicitAny: the page's global Chart.js
          const chart = (window as any).Chart.getChart("over-time");
          const datasetIndex = chart.data.datasets.findIndex((d: { label: string }) => d.label === series);
          chart.tooltip.setActiveElements([{ datasetIndex, index: chart.data.labels.indexOf(day) }], { x: 0, y: 0 });
          chart.update();
          return chart.tooltip.body.flatMap((b: { lines: string[] }) => b.lines);
        },
        [day, series],
      );
    expect(await tooltip("2026-03-02", "gpt-4o-mini")).toEqual(["gpt-4o-mini: $0.30 (exact 0.300000001)"]);
    expect(await tooltip("2026-03-03", "gpt-4o")).toEqual(["gpt-4o: $3.60 (exact 3.600000000)"]);
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
    expect(chat.totals.cost_usd).toBe("9.450000000");
    expect(await page.textContent("#total-cost")).toBe("$9.45");
    expect(await page.getAttribute("#total-cost", "title")).toBe("9.450000000");
    await page.selectOption("select[name='context.feature']", "");
    await page.click("#controls button");
    await ready();
    const file = process.env.DASHBOARD_SCREENSHOT ?? join(tmpdir(), `dashboard-${process.pid}.png`);
    await page.screenshot({ path: file, fullPage: true });
    expect(statSync(file).size).toBeGreaterThan(10_000);
  });

  it("loads with no failed request, error status or console error, its icon included", async () => {
    const fresh = await browser.newPage();
    try {
      const seen = problems(fresh);
      // Chromium asks for the page's icon once the page has loaded, whenever that is: waited for by name.
      const icon = fresh.waitForResponse((response) => response.url().includes("favicon"), { timeout: 20_000 });
      await fresh.goto(`${fixture.gateway.baseUrl}/dashboard?${range}`);
      await fresh.fill("#key", fixture.readKey);
      await fresh.click("#key-form button");
      await fresh.waitForSelector("body[data-state=ready]");
      const answer: Response = await icon;
      expect([new URL(answer.url()).pathname, answer.status(), answer.headers()["content-type"]]).toEqual([
        "/dashboard/favicon.svg",
        200,
        "image/svg+xml",
      ]);
      expect(await fresh.textContent("#total-cost")).toBe("$10.35");
      expect(seen).toEqual([]);
    } finally {
      await fresh.close();
    }
    for (const path of ["/dashboard/favicon.svg", "/favicon.ico"]) {
      const icon = await fetch(`${fixture.gateway.baseUrl}${path}`);
      expect([icon.status, icon.headers.get("content-type")]).toEqual([200, "image/svg+xml"]);
      expect(await icon.text()).toMatch(/^<svg /);
    }
  });
});
