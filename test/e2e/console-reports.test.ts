import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedUsage } from "../../scripts/lib/seed-usage.ts";
import { consoleFixture } from "../setup/console.ts";
import { accessibilityViolations } from "../setup/console-browser.ts";
import { firestore } from "../setup/harness.ts";

// Costs, Transactions and Unpriced in Chromium, on records seeded as the worker stores them.
let world: Awaited<ReturnType<typeof consoleFixture>>;
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
const HOSTILE_MODEL = '<img src=x onerror="document.body.dataset.owned=1">';
const HOSTILE_CUSTOMER = "\u202etnemyap\u0000<b>bold</b>";
const HOUSE_MODEL = "house-model-7";

beforeAll(async () => {
  world = await consoleFixture(["feature"]);
  await seedUsage(
    firestore(),
    world.org,
    ["feature"],
    [
      { received_at: hoursAgo(2), customer: "acme", context: { feature: "chat" }, cost_nanos: 1_234_567 },
      { received_at: hoursAgo(3), customer: "acme", context: { feature: "chat" }, cost_nanos: 1_234_567 },
      { received_at: hoursAgo(4), customer: "acme", context: { feature: "search" }, cost_nanos: 5_000_000_000 },
      { received_at: hoursAgo(5), customer: "globex", context: { feature: "chat" }, cost_nanos: 250_000_000 },
      {
        received_at: hoursAgo(6),
        customer: HOSTILE_CUSTOMER,
        model: HOSTILE_MODEL,
        context: { feature: "<script>document.body.dataset.owned=2</script>" },
        cost_nanos: 7,
      },
      // 100 input and 20 output tokens (the seed's usage), no price yet.
      { received_at: hoursAgo(1), customer: "initech", provider: "custom", model: HOUSE_MODEL, status: "unpriced" },
      // One page and a half of one customer's records.
      ...Array.from({ length: 55 }, (_, at) => ({
        received_at: hoursAgo(10 + at / 60),
        customer: "pager",
        cost_nanos: 1,
      })),
    ],
  );
}, 600_000);
afterAll(() => world?.close());

describe("Costs", { timeout: 180_000 }, () => {
  it("filters by a customer and a context dimension at once, with the figures of GET /usage/costs, exactly", async () => {
    const { page, problems } = await world.signedIn(world.people.viewer, `/console/costs?org=${world.org}`);
    await page.getByLabel("Customer").fill("acme");
    await page.getByLabel("feature", { exact: true }).fill("chat");
    await page.getByLabel("Group by").selectOption("context.feature");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL((url) => url.searchParams.get("context.feature") === "chat");
    const url = new URL(page.url());
    expect(url.searchParams.get("billable_customer_id")).toBe("acme");
    expect(url.searchParams.get("group_by")).toBe("context.feature");
    // Two records of 1,234,567 nano-USD: $0.002469134, shown to the last digit rather than as $0.00.
    await page.locator("#total-cost", { hasText: "$0.002469134" }).waitFor();
    const api = await page.evaluate(
      async (query) => {
        const response = await fetch(`/usage/costs?${query}`);
        return response.json();
      },
      `org=${world.org}&from=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}&billable_customer_id=acme&context.feature=chat`,
    );
    expect(api.totals.cost_usd).toBe("0.002469134");
    const rows = await page.getByRole("table", { name: "Costs by feature" }).getByRole("row").allTextContents();
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain("chat");
    expect(rows[1]).toContain("$0.002469134");
    await page.getByRole("img", { name: /Cost per day, stacked by feature/ }).waitFor();
    const csvHref = (await page.getByRole("link", { name: "Download CSV" }).getAttribute("href")) as string;
    expect(csvHref).toContain("format=csv");
    const csv = await page.evaluate(async (href) => (await fetch(href)).text(), csvHref);
    expect(csv.split("\n")[0]).toContain("context.feature");
    expect(csv).toContain("0.002469134");

    // The URL alone brings the same view back.
    await page.goto(url.href);
    await page.locator("#total-cost", { hasText: "$0.002469134" }).waitFor();
    expect(await page.getByLabel("Customer").inputValue()).toBe("acme");
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe("Transactions", { timeout: 180_000 }, () => {
  it("lists records with hostile names as text, filters by status and opens one", async () => {
    const { page, problems } = await world.signedIn(world.people.viewer, `/console/transactions?org=${world.org}`);
    const table = page.getByRole("table", { name: "Transactions, newest first" });
    await table.waitFor();
    expect(await table.getByRole("row").count()).toBe(51);
    const model = page.locator("td bdi", { hasText: "onerror" });
    expect(await model.textContent()).toBe(HOSTILE_MODEL);
    expect(await page.locator("td bdi", { hasText: "tnemyap" }).textContent()).toBe(HOSTILE_CUSTOMER);
    expect(await page.locator("main img, main b, main script").count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByLabel("Status").selectOption("unpriced");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL((url) => url.searchParams.get("status") === "unpriced");
    await table.getByRole("row").nth(2).waitFor({ state: "detached" });
    await table.getByRole("link", { name: /^Open transaction/ }).click();
    await page.locator("#record-status", { hasText: "unpriced: not priced (unknown_model)" }).waitFor();
    await page.getByRole("heading", { name: "Line items" }).waitFor();
    await page.getByRole("link", { name: "Back to the list" }).click();
    await table.waitFor();
    expect(await page.evaluate(() => document.body.dataset.owned)).toBeUndefined();
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe("Transactions' pages", { timeout: 180_000 }, () => {
  it("pages through one customer's records, 50 at a time, with the page in the URL", async () => {
    const path = `/console/transactions?org=${world.org}&billable_customer_id=pager`;
    const { page, problems } = await world.signedIn(world.people.viewer, path);
    const opens = page.getByRole("link", { name: /^Open transaction/ });
    await page.getByRole("link", { name: "Next page" }).waitFor();
    expect(await opens.count()).toBe(50);
    const first = await opens.first().getAttribute("aria-label");
    await page.getByRole("link", { name: "Next page" }).click();
    await page.getByRole("link", { name: "First page" }).waitFor();
    expect(new URL(page.url()).searchParams.get("page_token")).toBeTruthy();
    expect(await opens.count()).toBe(5);
    expect(await page.getByRole("link", { name: "Next page" }).count()).toBe(0);
    await page.getByRole("link", { name: "First page" }).click();
    await page.getByRole("link", { name: "Next page" }).waitFor();
    expect(await opens.first().getAttribute("aria-label")).toBe(first);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe("Unpriced", { timeout: 180_000 }, () => {
  it("is read-only for a viewer", async () => {
    const { page } = await world.signedIn(world.people.viewer, `/console/unpriced?org=${world.org}`);
    await page.getByRole("cell", { name: HOUSE_MODEL }).waitFor();
    expect(await page.getByRole("button", { name: /Add price|Add a price|Reprice/ }).count()).toBe(0);
    await page.context().close();
  });

  it("adds a custom price for the model and reprices; the transaction then shows its rates", async () => {
    const { page, problems } = await world.signedIn(world.people.admin, `/console/unpriced?org=${world.org}`);
    await page.getByRole("button", { name: `Add price for ${HOUSE_MODEL}` }).click();
    const form = page.getByRole("form", { name: "Add a price" });
    expect(await form.getByLabel("Provider").inputValue()).toBe("custom");
    expect(await form.getByLabel("Model").inputValue()).toBe(HOUSE_MODEL);
    await form.getByLabel("Input, per million tokens", { exact: true }).fill("3");
    await form.getByLabel("Output, per million tokens").fill("15");
    await form.getByRole("button", { name: "Add price" }).click();
    await page.getByText(`Price added for ${HOUSE_MODEL}`).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Reprice" }).click();
    await page.getByText(/Repriced: 1 of 1 examined are priced now/).waitFor();
    await page.getByText("Every transaction of the last 90 days has a price.").waitFor();

    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Transactions" }).click();
    await page.getByRole("row").filter({ hasText: HOUSE_MODEL }).getByRole("link").click();
    // Worked out by hand: 100 input tokens at $3 per million = $0.0003, 20 output tokens at $15 per
    // million = $0.0003; $0.0006 in all.
    await page.locator("#record-cost", { hasText: "$0.0006" }).waitFor();
    const items = await page.getByRole("table", { name: "Line items" }).getByRole("row").allTextContents();
    expect(
      items.some((row) => row.includes("input") && row.includes("$3.00 per 1,000,000") && row.includes("$0.0003")),
    ).toBe(true);
    expect(
      items.some((row) => row.includes("output") && row.includes("$15.00 per 1,000,000") && row.includes("$0.0003")),
    ).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
