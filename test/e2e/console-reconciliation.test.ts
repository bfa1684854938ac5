import { randomBytes } from "node:crypto";
import { reconcileTick } from "@usage-ingestion/reconciliation";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicDays, anthropicTickDeps, day, HAIKU, today } from "../setup/anthropic-days.ts";
import { consoleFixture } from "../setup/console.ts";
import { accessibilityViolations } from "../setup/console-browser.ts";
import { uniqueId } from "../setup/harness.ts";
import { ANTHROPIC_PATHS, type VendorStandIn, vendorStandIn } from "../setup/vendor-stand-ins.ts";

// Settings, Connections and the Reconciliation page in Chromium: an admin connects Anthropic (a local
// stand-in serving the Admin API's report shapes), starts a run, and reads each day's figures beside ours.
const secretKey = randomBytes(32);
// A made-up Admin API key in Anthropic's form, unique to this run so that finding it anywhere means a leak.
const CREDENTIAL = `sk-ant-admin01-${uniqueId("console").replace("-", "")}`;
let world: Awaited<ReturnType<typeof consoleFixture>>;
let stand: VendorStandIn;

beforeAll(async () => {
  world = await consoleFixture(["team"], { secretKey });
  stand = await vendorStandIn("anthropic", ANTHROPIC_PATHS);
  await anthropicDays(world.org, stand);
}, 600_000);
afterAll(async () => {
  await world?.close();
  await stand?.close();
});

const open = async (page: Page, name: string) => {
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name, exact: true }).click();
  await page.getByRole("heading", { level: 1, name }).waitFor();
  await page.locator("main:not([aria-busy])").waitFor();
};

/** The credential anywhere in the page: its markup, any control's value, or its text. */
const credentialShown = (page: Page) =>
  page.evaluate(
    (secret) =>
      document.documentElement.outerHTML.includes(secret) ||
      [...document.querySelectorAll("input, textarea, select")].some((control) =>
        (control as HTMLInputElement).value.includes(secret),
      ),
    CREDENTIAL,
  );

describe("Reconciliation", { timeout: 240_000 }, () => {
  it("tells how to connect a vendor, connects one without showing its credential again, and runs", async () => {
    const { page, problems } = await world.signedIn(world.people.admin, `/console/reconciliation?org=${world.org}`);
    await page.getByRole("heading", { name: "No vendor is connected" }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Settings, Connections" }).click();
    await page.getByRole("heading", { level: 1, name: "Connections" }).waitFor();
    await page.getByText("No vendor is connected yet.").waitFor();

    const form = page.getByRole("form", { name: "Connect a vendor" });
    await form.getByLabel("Vendor").selectOption("anthropic");
    await form.getByText("An Anthropic Admin API key").waitFor();
    expect(await form.getByLabel("Credential").getAttribute("type")).toBe("password");
    await form.getByLabel("Credential").fill(CREDENTIAL);
    await form.getByLabel("Mappings").fill("workspace_id=team");
    await form.getByRole("button", { name: "Save connection" }).click();
    await page.getByText("Connected anthropic.").waitFor();
    const row = page.getByRole("row").filter({ hasText: "anthropic" });
    await row.getByRole("cell", { name: "workspace_id=team" }).waitFor();
    await row.getByRole("cell", { name: "never" }).waitFor();
    expect(await form.getByLabel("Credential").inputValue()).toBe("");
    expect(await credentialShown(page)).toBe(false);
    expect(await accessibilityViolations(page)).toEqual([]);
    // Replacing it asks for the credential afresh, the mappings kept.
    await row.getByRole("button", { name: "Replace credential of anthropic" }).click();
    expect(await form.getByLabel("Mappings").inputValue()).toBe("workspace_id=team");
    expect(await form.getByLabel("Credential").inputValue()).toBe("");

    await open(page, "Reconciliation");
    await page.getByText("No comparisons in these days yet.").waitFor();
    await page.getByLabel("From (UTC day)").fill(day(5));
    await page.getByLabel("To (UTC day, inclusive)").fill(day(1));
    await page.getByLabel("Provider").selectOption("anthropic");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL((url) => url.searchParams.get("to") === day(1));
    await page.getByRole("button", { name: "Start a run for these days" }).click();
    await page.getByText(new RegExp(`over ${day(5)} to ${day(1)}: queued`)).waitFor();

    // The worker's tick takes the run up; the page, asking after it, shows what it stored.
    const tick = await reconcileTick(anthropicTickDeps(stand, secretKey), 7, [world.org]);
    // From 06:00 UTC the tick also queues and does the organization's daily run: each run read Anthropic.
    expect(tick.done.length).toBeGreaterThan(0);
    expect(tick.done.flatMap((done) => done.vendors.map((result) => result.error))).toEqual(tick.done.map(() => null));
    await page.getByText(/: succeeded\./).waitFor();
    await page.getByText("anthropic: 3 rows (matched 1, price_mismatch 1, vendor_only 1)").waitFor();

    // Each day's totals, exactly: ours $0.90 beside the vendor's $0.975 is $0.075, 7.69% of the vendor's:
    // past the default drift threshold (1% and $0.01), as is yesterday's $0.075, which the alert judges
    // from 06:00 UTC today.
    const yesterday =
      Date.now() >= today + 6 * 3_600_000
        ? "past the threshold"
        : `past the threshold; judged from ${day(0)} 06:00 UTC`;
    const days = page.getByRole("table", { name: "Each day's totals per vendor" });
    const totalOf = (n: number) => days.getByRole("row").filter({ hasText: day(n) });
    await expect
      .poll(() => totalOf(3).locator("td").allInnerTexts())
      .toEqual([day(3), "anthropic", "1", "$0.90", "$0.90", "$0.00", "0.00%", "within the threshold"]);
    expect(await totalOf(2).locator("td").allInnerTexts()).toEqual([
      day(2),
      "anthropic",
      "1",
      "$0.90",
      "$0.975",
      "+$0.075",
      "+7.69%",
      "past the threshold",
    ]);
    expect(await totalOf(1).locator("td").allInnerTexts()).toEqual([
      day(1),
      "anthropic",
      "1",
      "$0.00",
      "$0.075",
      "+$0.075",
      "+100.00%",
      yesterday,
    ]);

    const rows = page.getByRole("table", { name: /^Our figures beside the vendor's/ });
    const rowOf = (n: number) => rows.getByRole("row").filter({ hasText: day(n) });
    await rowOf(3).getByRole("cell", { name: "matched", exact: true }).waitFor();
    await rowOf(2).getByRole("cell", { name: "price_mismatch (cache_read: ours $0.30, vendor $0.375)" }).waitFor();
    await rowOf(2).getByRole("cell", { name: "1,000,000 / 1,000,000" }).waitFor();
    await rowOf(1).getByRole("cell", { name: "vendor_only" }).waitFor();
    await rowOf(1)
      .getByRole("cell", { name: `claude-haiku-4-5 as ${HAIKU}` })
      .waitFor();
    await rowOf(1).getByRole("cell", { name: "0 / 50,000" }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    // A model filter keeps that model's rows only.
    await page.getByLabel("Model").fill("claude-haiku-4-5");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL((url) => url.searchParams.get("model") === "claude-haiku-4-5");
    await page.locator("main:not([aria-busy])").waitFor();
    expect(await rows.getByRole("row").count()).toBe(2);
    await rowOf(1).getByRole("cell", { name: "vendor_only" }).waitFor();

    await open(page, "Connections");
    await page.getByRole("row").filter({ hasText: "anthropic" }).locator("time").nth(1).waitFor();
    expect(await credentialShown(page)).toBe(false);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("shows a viewer the figures and the connections, read-only", async () => {
    // More days than the API reads at once: said beside the controls, which put it right.
    const path = `/console/reconciliation?org=${world.org}&from=${day(120)}&to=${day(1)}`;
    const { page, problems } = await world.signedIn(world.people.viewer, path);
    await page.getByRole("alert").filter({ hasText: "at most 92 days" }).waitFor();
    await page.getByLabel("From (UTC day)").fill(day(5));
    await page.getByRole("button", { name: "Apply" }).click();
    await page
      .getByRole("table", { name: /^Our figures beside the vendor's/ })
      .getByText("price_mismatch")
      .waitFor();
    expect(await page.getByRole("button", { name: "Start a run for these days" }).count()).toBe(0);
    await page
      .getByRole("region", { name: "Runs" })
      .getByText(/Your role \(viewer\) can read this page/)
      .waitFor();
    await open(page, "Connections");
    await page.getByRole("row").filter({ hasText: "anthropic" }).waitFor();
    expect(await page.locator("main").getByRole("button").count()).toBe(0);
    expect(await page.locator("main input, main select").count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    // The refused range is a 400 the browser logs; nothing else went wrong.
    expect(problems).toEqual([expect.stringContaining("400")]);
    await page.context().close();
  });
});
