import { operatorChange } from "@usage-ingestion/audit";
import { CONSOLE_CSP } from "@usage-ingestion/gateway";
import { inviteMember } from "@usage-ingestion/members";
import { createOrganization } from "@usage-ingestion/organizations";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessibilityViolations, launchChromium, pageProblems, signInToConsole } from "../setup/console-browser.ts";
import { firestore, pullableTopic, uniqueId } from "../setup/harness.ts";
import { signInFixture } from "../setup/sign-in.ts";

// The console in Chromium, signed in through the development provider as an owner of two organizations,
// an admin and a viewer of one.
const owner = `${uniqueId("owner")}@example.com`;
const admin = `${uniqueId("admin")}@example.com`;
const viewer = `${uniqueId("viewer")}@example.com`;
const org = uniqueId("org");
const other = uniqueId("other");
let fixture: Awaited<ReturnType<typeof signInFixture>>;
let browser: Browser;

beforeAll(async () => {
  const topic = await pullableTopic();
  fixture = await signInFixture(
    [owner, admin, viewer].map((email) => ({ email, emailVerified: true })),
    { ingestTopic: topic.topicName },
  );
  await createOrganization(firestore(), org, "Console test");
  await createOrganization(firestore(), other, "Second organization");
  const change = operatorChange("test");
  await inviteMember(firestore(), org, owner, "owner", change);
  await inviteMember(firestore(), other, owner, "owner", change);
  await inviteMember(firestore(), org, admin, "admin", change);
  await inviteMember(firestore(), org, viewer, "viewer", change);
  browser = await launchChromium();
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await fixture?.close();
});

async function signedIn(email: string, path?: string): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = pageProblems(page, (text) => text.includes("401"));
  await signInToConsole(page, fixture.baseUrl, email, path);
  return { page, problems };
}

describe("the console's frame", () => {
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
