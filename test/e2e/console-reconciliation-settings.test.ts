import { randomBytes } from "node:crypto";
import { operatorChange } from "@usage-ingestion/audit";
import { getSettings, putConnection, putSettings, reconcileTick, requestRun } from "@usage-ingestion/reconciliation";
import { secretBox } from "@usage-ingestion/webhooks";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicDays, anthropicTickDeps, day, today } from "../setup/anthropic-days.ts";
import { consoleFixture } from "../setup/console.ts";
import { accessibilityViolations } from "../setup/console-browser.ts";
import { firestore } from "../setup/harness.ts";
import { ANTHROPIC_PATHS, type VendorStandIn, vendorStandIn } from "../setup/vendor-stand-ins.ts";

// The organization's tolerance and drift threshold on the Reconciliation page, in Chromium: the page states
// them and judges each day's drift by them; an admin changes them, a viewer reads them and cannot.
const secretKey = randomBytes(32);
let world: Awaited<ReturnType<typeof consoleFixture>>;
let stand: VendorStandIn;

beforeAll(async () => {
  world = await consoleFixture([], { secretKey });
  stand = await vendorStandIn("anthropic", ANTHROPIC_PATHS);
  await anthropicDays(world.org, stand);
  await putConnection(firestore(), secretBox(secretKey), world.org, "anthropic", {
    credential: "sk-ant-admin01-console-settings-test",
  });
  await requestRun(firestore(), world.org, { from: new Date(`${day(5)}T00:00:00Z`), to: new Date(today) });
  const tick = await reconcileTick(anthropicTickDeps(stand, secretKey), 7, [world.org]);
  const errors = tick.done.flatMap((done) => done.vendors.map((result) => result.error));
  expect(new Set(errors)).toEqual(new Set([null]));
}, 600_000);
afterAll(async () => {
  await world?.close();
  await stand?.close();
});

const pagePath = () => `/console/reconciliation?org=${world.org}&from=${day(5)}&to=${day(1)}`;
const rules = (page: Page) => page.locator("#reconciliation-rules");
/** The drift threshold's verdict on a day, the last cell of its row in the days' totals. */
const verdict = (page: Page, n: number) =>
  page
    .getByRole("table", { name: "Each day's totals per vendor" })
    .getByRole("row")
    .filter({ hasText: day(n) })
    .locator("td")
    .last();
// Yesterday's drift is judged from 06:00 UTC today (the vendors' cost reports fill in overnight).
const pastYesterday = () =>
  Date.now() >= today + 6 * 3_600_000 ? "past the threshold" : `past the threshold; judged from ${day(0)} 06:00 UTC`;

describe("The reconciliation settings", { timeout: 240_000 }, () => {
  it("lets an admin change them, says a refused value beside its field, and a stale form's conflict", async () => {
    const { page, problems } = await world.signedIn(world.people.admin, pagePath());
    await rules(page).getByText("These are the defaults.").waitFor();
    expect(await rules(page).textContent()).toContain(
      "A row is matched with each token count within 1% of the vendor's, and the cost within 1% or $0.01, whichever is larger. A day is past the drift threshold, and alerted, when its total differs from the vendor's by more than 1% of the vendor's total and by more than $0.01.",
    );
    // Day 2: ours $0.90, the vendor's $0.975: $0.075 apart, past 1% of $0.975 ($0.00975) and past $0.01.
    expect(await verdict(page, 3).textContent()).toBe("within the threshold");
    expect(await verdict(page, 2).textContent()).toBe("past the threshold");
    expect(await verdict(page, 1).textContent()).toBe(pastYesterday());

    const form = page.getByRole("form", { name: "Tolerance and drift threshold" });
    expect(await form.getByLabel("Tolerance (USD)").inputValue()).toBe("0.01");
    await form.getByLabel("Tolerance (%)").fill("2.5");
    await form.getByLabel("Drift threshold (%)").fill("10");
    await form.getByLabel("Drift threshold (USD)").fill("0.0000000001");
    await form.getByRole("button", { name: "Save settings" }).click();
    await form.getByRole("alert").filter({ hasText: "Not saved: see the fields marked." }).waitFor();
    const amount = form.getByLabel("Drift threshold (USD)");
    expect(await amount.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await amount.getAttribute("aria-describedby")) ?? "";
    const description = await page.evaluate(
      (ids) => ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" "),
      describedBy.split(" "),
    );
    expect(description).toContain("at most 9 decimal places");
    expect(await form.getByLabel("Tolerance (%)").getAttribute("aria-invalid")).toBeNull();
    expect(await accessibilityViolations(page)).toEqual([]);

    await amount.fill("0.05");
    await form.getByRole("button", { name: "Save settings" }).click();
    await form.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    expect(await amount.getAttribute("aria-invalid")).toBeNull();
    expect(await rules(page).textContent()).toContain(
      "within 2.5% of the vendor's, and the cost within 2.5% or $0.01, whichever is larger. A day is past the drift threshold, and alerted, when its total differs from the vendor's by more than 10% of the vendor's total and by more than $0.05.",
    );
    await page.getByText("a token count differs by more than 2.5%").waitFor();
    // Day 2's $0.075 is within 10% of $0.975 ($0.0975); day 1's $0.075 of $0.075 is past 10% and past $0.05.
    expect(await verdict(page, 2).textContent()).toBe("within the threshold");
    expect(await verdict(page, 1).textContent()).toBe(pastYesterday());
    expect(await getSettings(firestore(), world.org)).toMatchObject({
      tolerance_percent: 2.5,
      tolerance_usd: "0.010000000",
      drift_threshold_percent: 10,
      drift_threshold_usd: "0.050000000",
    });

    // Someone else replaces them meanwhile: the form's etag is stale, and saving it overwrites nothing.
    await putSettings(firestore(), world.org, { drift_threshold_percent: 50 }, operatorChange("test"));
    await form.getByLabel("Tolerance (USD)").fill("0.02");
    await form.getByRole("button", { name: "Save settings" }).click();
    await form.getByRole("alert").filter({ hasText: "Someone else changed these settings" }).waitFor();
    expect(await form.getByLabel("Drift threshold (%)").inputValue()).toBe("50");
    expect(await form.getByLabel("Tolerance (%)").inputValue()).toBe("1");
    expect(await form.getByLabel("Tolerance (USD)").inputValue()).toBe("0.01");
    expect(await rules(page).textContent()).toContain("by more than 50% of the vendor's total");
    expect(await getSettings(firestore(), world.org)).toMatchObject({
      tolerance_usd: "0.010000000",
      drift_threshold_percent: 50,
    });
    expect(await accessibilityViolations(page)).toEqual([]);
    // The refused value (400) and the stale form (409) are answers the browser logs; nothing else went wrong.
    expect(problems).toEqual([expect.stringContaining("400"), expect.stringContaining("409")]);
    await page.context().close();
  });

  it("shows a viewer the settings read-only, and the server refuses a viewer's change", async () => {
    const { page, problems } = await world.signedIn(world.people.viewer, pagePath());
    await rules(page).getByText("by more than 50% of the vendor's total").waitFor();
    const panel = page.getByRole("region", { name: "Tolerance and drift threshold" });
    await panel.getByText(/Your role \(viewer\) can read this page/).waitFor();
    expect(await panel.locator("dl").textContent()).toMatch(/Drift threshold \(%\)\s*50%/);
    expect(await panel.locator("input, button, select").count()).toBe(0);
    expect(await page.getByRole("form", { name: "Tolerance and drift threshold" }).count()).toBe(0);
    // Day 1's $0.075 of the vendor's $0.075 is 100%: past 50%, and past $0.01.
    expect(await verdict(page, 1).textContent()).toBe(pastYesterday());
    expect(await accessibilityViolations(page)).toEqual([]);

    // The console offers no change; the server, asked anyway with the session's CSRF token, refuses it.
    const status = await page.evaluate(async (org) => {
      const me = await fetch("/v1/me", { credentials: "same-origin" });
      const response = await fetch(`/v1/orgs/${encodeURIComponent(org)}/reconciliation/settings`, {
        method: "PUT",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": me.headers.get("X-CSRF-Token") ?? "" },
        body: JSON.stringify({ tolerance_percent: 5 }),
      });
      return response.status;
    }, world.org);
    expect(status).toBe(403);
    expect((await getSettings(firestore(), world.org)).tolerance_percent).toBe(1);
    expect(problems).toEqual([expect.stringContaining("403")]);
    await page.context().close();
  });
});
