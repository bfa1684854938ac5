import { CONSOLE_CSP } from "@usage-ingestion/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleFixture } from "../setup/console.ts";
import { accessibilityViolations } from "../setup/console-browser.ts";
import { validTransaction } from "../setup/fixtures.ts";

// The console in Chromium, signed in through the development provider as an owner of two organizations,
// an admin and a viewer of one.
let world: Awaited<ReturnType<typeof consoleFixture>>;
let fixture: Awaited<ReturnType<typeof consoleFixture>>["gateway"];
let org: string;
let other: string;
let owner: string;
let admin: string;
let viewer: string;

beforeAll(async () => {
  world = await consoleFixture();
  fixture = world.gateway;
  ({ org, other } = world);
  ({ owner, admin, viewer } = world.people);
}, 600_000);
afterAll(() => world?.close());

const signedIn = (email: string, path?: string) => world.signedIn(email, path);

describe("the console's frame", { timeout: 180_000 }, () => {
  it("is served with a strict Content-Security-Policy and no inline script", async () => {
    const response = await fetch(`${fixture.baseUrl}/console`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).not.toContain("unsafe");
    const html = await response.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(html).not.toMatch(/\son\w+=/);
    expect((await fetch(`${fixture.baseUrl}/console/settings/api-keys?org=x`)).status).toBe(200);
    expect((await fetch(`${fixture.baseUrl}/console/nowhere`)).status).toBe(404);
  });

  it("signs in from its link, names every page, switches organization and signs out", async () => {
    const { page, problems } = await signedIn(owner, `/console/transactions?org=${org}`);
    expect(new URL(page.url()).pathname).toBe("/console/transactions");
    const nav = page.getByRole("navigation", { name: "Console" });
    for (const name of ["Costs", "Transactions", "Unpriced", "Budgets", "Webhooks"]) {
      await nav.getByRole("link", { name, exact: true }).waitFor();
    }
    const settings = nav.getByRole("list", { name: "Settings" });
    for (const name of ["Prices", "Dimensions", "API Keys", "Members", "Audit log"]) {
      await settings.getByRole("link", { name, exact: true }).waitFor();
    }
    const switcher = page.getByLabel("Organization");
    expect(await switcher.inputValue()).toBe(org);
    await switcher.selectOption(other);
    await page.waitForURL((url) => url.searchParams.get("org") === other);
    await nav.getByRole("link", { name: "API Keys" }).click();
    await page.waitForURL((url) => url.pathname === "/console/settings/api-keys");
    // Followed, a link puts the focus on the new page's content.
    await page.locator("main:focus").waitFor();
    expect(new URL(page.url()).searchParams.get("org")).toBe(other);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === "/console/transactions");
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Sign in" }).waitFor();
    const me = await page.evaluate(async () => (await fetch("/v1/me")).status);
    expect(me).toBe(401);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

const HOSTILE = '<img src=x onerror="document.body.dataset.owned=1">\u202eevil\u0007';

const sendUsage = (key: string) =>
  fetch(`${fixture.baseUrl}/usage/transactions`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify(validTransaction()),
  });

describe("Settings, then API Keys", { timeout: 180_000 }, () => {
  it("creates a key shown once that sends usage (202), and disabling it refuses it (401)", async () => {
    const { page, problems } = await signedIn(admin, `/console?org=${org}`);
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "API Keys" }).click();
    await page.getByRole("button", { name: "Create New Key" }).click();
    await page.getByLabel("Name").fill("ci pipeline");
    await page.getByLabel("Scope").selectOption("ingest");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    const secret = await page.getByLabel("New key").inputValue();
    expect(secret).toMatch(/^usk_/);
    await page.getByRole("button", { name: "Copy" }).waitFor();
    await page.getByText("it will not be shown again").waitFor();
    const row = page.getByRole("row").filter({ hasText: "ci pipeline" });
    await row.waitFor();
    const headers = await page.getByRole("table").getByRole("columnheader").allInnerTexts();
    for (const header of ["Name", "Prefix", "Scope", "Status", "Created", "Last used"])
      expect(headers).toContain(header);
    const prefix = (await row.getByRole("cell").nth(1).textContent()) ?? "";
    expect(prefix.length).toBeGreaterThan(4);
    expect(secret.startsWith(prefix)).toBe(true);
    expect(await row.getByRole("cell").nth(3).textContent()).toBe("active");
    expect(await row.getByRole("cell").nth(5).textContent()).toBe(`user ${admin}`);
    expect(await accessibilityViolations(page)).toEqual([]);

    expect((await sendUsage(secret)).status).toBe(202);
    await row.getByRole("button", { name: "Disable key ci pipeline" }).click();
    await row.getByRole("cell", { name: "disabled" }).waitFor();
    // The fixture's key cache keeps nothing (ttl 0): the bound here is the next request.
    expect((await sendUsage(secret)).status).toBe(401);
    await row.getByRole("button", { name: "Enable key ci pipeline" }).click();
    await row.getByRole("cell", { name: "active", exact: true }).waitFor();
    expect((await sendUsage(secret)).status).toBe(202);

    // Reloaded, the page lists the key but never shows its secret again.
    await page.reload();
    await row.waitFor();
    expect(await page.getByLabel("New key").count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("shows a key named with markup, bidi and control characters as text", async () => {
    const { page, problems } = await signedIn(owner, `/console/settings/api-keys?org=${org}`);
    await page.getByRole("button", { name: "Create New Key" }).click();
    await page.getByLabel("Name").fill(HOSTILE);
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.getByLabel("New key").waitFor();
    const cell = page.locator("td bdi").filter({ hasText: "onerror" });
    expect(await cell.evaluate((element) => element.textContent)).toBe(HOSTILE);
    expect(await page.locator("main img").count()).toBe(0);
    expect(await page.evaluate(() => document.body.dataset.owned)).toBeUndefined();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("is usable by keyboard alone, with a visible focus", async () => {
    const { page, problems } = await signedIn(admin, `/console/settings/api-keys?org=${org}`);
    await page.getByRole("button", { name: "Create New Key" }).waitFor();
    const focused = () =>
      page.evaluate(() => {
        const element = (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document
          .activeElement;
        return element.textContent;
      });
    let tabs = 0;
    while ((await focused()) !== "Create New Key" && tabs++ < 40) await page.keyboard.press("Tab");
    expect(await focused()).toBe("Create New Key");
    const outline = await page.getByRole("button", { name: "Create New Key" }).evaluate((element) => {
      const style = (
        globalThis as unknown as { getComputedStyle(element: unknown): { outlineStyle: string; outlineWidth: string } }
      ).getComputedStyle(element);
      return `${style.outlineStyle} ${style.outlineWidth}`;
    });
    expect(outline).toBe("solid 3px");
    await page.keyboard.press("Enter");
    await page.keyboard.type("typed by keyboard");
    await page.keyboard.press("Tab");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    expect(await page.getByLabel("New key").inputValue()).toMatch(/^usk_/);
    const row = page.getByRole("row").filter({ hasText: "typed by keyboard" });
    expect(await row.getByRole("cell").nth(2).textContent()).toBe("read");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("is read-only for a viewer, who still sees the list", async () => {
    const { page, problems } = await signedIn(viewer, `/console/settings/api-keys?org=${org}`);
    await page.getByRole("row").filter({ hasText: "ci pipeline" }).waitFor();
    expect(await page.getByRole("button", { name: "Create New Key" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^(Disable|Enable)/ }).count()).toBe(0);
    await page.getByText("Your role (viewer) can read this page").waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
