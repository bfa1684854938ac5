import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, waitFor } from "../../scripts/lib/processes.ts";
import { accessibilityViolations, launchChromium, pageProblems, signInToConsole } from "../setup/console-browser.ts";
import { uniqueId } from "../setup/harness.ts";
import { launch } from "../setup/launcher.ts";
import { startReceiver, until } from "../setup/webhooks.ts";

// The newcomer's path on `npm start`: sign in at the printed console address as the printed account,
// create a key in Settings, send usage with it, and find that transaction's cost and rates.
process.env.LOCAL_STACK_STATE_FILE = join(mkdtempSync(join(tmpdir(), "console-stack-")), "state.json");
const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

const printed = (lines: string[], label: string) =>
  lines
    .find((line) => line.startsWith(label))
    ?.split(/\s+/)
    .pop() as string;

describe("the console on npm start", () => {
  it("signs the printed account in, makes a key that sends usage, shows its rates, and alerts a webhook", async () => {
    const port = await freePort();
    const stack = launch({ port, workerPort: await freePort(), ownEmulators: false });
    stops.push(() => stack.launcher.stop());
    await stack.ready();
    const browser = await launchChromium();
    stops.push(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(60_000);
    const problems = pageProblems(page, (text) => text.includes("401"));
    const consoleUrl = printed(stack.lines, "Console:");
    expect(consoleUrl).toBe(`http://127.0.0.1:${port}/console`);
    await signInToConsole(page, `http://127.0.0.1:${port}`, printed(stack.lines, "Sign in as:"), "/console", {
      password: printed(stack.lines, "Password:"),
    });

    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "API Keys" }).click();
    await page.getByRole("button", { name: "Create New Key" }).click();
    await page.getByLabel("Name").fill("first key");
    await page.getByLabel("Scope").selectOption("ingest");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    const key = await page.getByLabel("New key").inputValue();

    const customer = uniqueId("newcomer");
    const sent = await fetch(`http://127.0.0.1:${port}/usage/transactions`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify({
        provider: "openai",
        model: "gpt-4o",
        usage: [{ type: "tokens", metrics: { input_tokens: 1200, output_tokens: 300, total_tokens: 1500 } }],
        context: { billable_customer_id: customer, feature: "chat" },
      }),
    });
    expect(sent.status).toBe(202);

    // The worker prices it within moments; the list is read again until it shows.
    const list = `${consoleUrl}/transactions?org=dev&billable_customer_id=${customer}&status=priced`;
    await waitFor(
      async () => {
        await page.goto(list);
        await page.locator("main:not([aria-busy])").waitFor();
        return (await page.getByRole("link", { name: /^Open transaction/ }).count()) === 1;
      },
      60_000,
      () => "the transaction never showed as priced",
    );
    await page.getByRole("link", { name: /^Open transaction/ }).click();
    // Page: https://developers.openai.com/api/docs/models/gpt-4o.md (copy dated 2026-09-24): input $2.50
    // per million tokens, output $10 per million. 1200 x $2.50/M = $0.003; 300 x $10/M = $0.003; $0.006.
    await page.locator("#record-cost", { hasText: "$0.006" }).waitFor();
    expect(await page.locator("#record-cost").textContent()).toBe("$0.006");
    const items = await page.getByRole("table", { name: "Line items" }).getByRole("row").allTextContents();
    expect(items.some((row) => row.includes("input") && row.includes("$2.50 per 1,000,000"))).toBe(true);
    expect(items.some((row) => row.includes("output") && row.includes("$10.00 per 1,000,000"))).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);

    // A webhook to a receiver on this machine and a budget the transaction already exceeds: the stack's
    // budget evaluation fires its threshold and a delivery signed with the secret the console showed arrives.
    const receiver = await startReceiver();
    stops.push(() => receiver.close());
    const nav = page.getByRole("navigation", { name: "Console" });
    await nav.getByRole("link", { name: "Webhooks" }).click();
    await page.getByLabel("URL").fill(receiver.url);
    await page.getByRole("button", { name: "Create webhook" }).click();
    const secret = await page.getByLabel("Signing secret").inputValue();
    await nav.getByRole("link", { name: "Budgets" }).click();
    await page.getByRole("button", { name: "New budget" }).click();
    const form = page.getByRole("form", { name: "New budget" });
    await form.getByLabel("Name").fill(`cap for ${customer}`);
    await form.getByLabel("Amount (USD)").fill("0.001");
    await form.getByLabel("Thresholds (%)").fill("100");
    await form.getByLabel("Customer").fill(customer);
    await form.getByRole("button", { name: "Create budget" }).click();
    await page
      .getByRole("row")
      .filter({ hasText: `cap for ${customer}` })
      .getByRole("cell", { name: "100%" })
      .waitFor();
    const delivery = await until(
      () => receiver.received.find((request) => request.body.includes(customer) || request.body.includes("threshold")),
      90_000,
      200,
    );
    expect(new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>)).toBeTruthy();
    // The delivery log says so too.
    await nav.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("link", { name: `Deliveries of ${receiver.url}` }).click();
    await waitFor(
      async () => {
        await page.locator("main:not([aria-busy])").waitFor();
        if ((await page.getByRole("cell", { name: "delivered", exact: true }).count()) > 0) return true;
        await page.reload();
        return false;
      },
      30_000,
      () => "the delivery log never showed the delivery as delivered",
    );
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  }, 300_000);
});
