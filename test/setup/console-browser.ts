import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Browser, chromium, type Page } from "playwright-core";
import { chromiumPath } from "./chromium.ts";
import { PASSWORD } from "./sign-in.ts";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox"] });
}

/**
 * Signs in as a person would: the console's Sign in link, the development provider's form (Email,
 * Password, Sign in), back on the console once its navigation shows.
 */
export async function signInToConsole(
  page: Page,
  baseUrl: string,
  email: string,
  path = "/console",
  options: { password?: string } = {},
) {
  await page.goto(`${baseUrl}${path}`);
  await page.getByRole("link", { name: "Sign in" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(options.password ?? PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("navigation", { name: "Console" }).waitFor();
}

/**
 * axe-core's violations of the page as it stands (WCAG 2.x A and AA and best practices). axe is run
 * through the browser's debugging protocol, which the page's Content-Security-Policy does not govern:
 * the page itself keeps refusing inline script.
 */
export async function accessibilityViolations(page: Page) {
  // Once the page has what it loads: the console marks main busy meanwhile.
  await page.locator("main:not([aria-busy])").waitFor();
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    type Violation = { id: string; help: string; nodes: Array<{ target: string[] }> };
    const page = globalThis as unknown as {
      axe: { run(context: unknown, options: unknown): Promise<{ violations: Violation[] }> };
      document: unknown;
    };
    const results = await page.axe.run(page.document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
    });
    return results.violations.map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
    );
  });
}

/** Console errors (a refused script or style among them), uncaught errors and failed requests from now on. */
export function pageProblems(page: Page, allowed: (text: string) => boolean = () => false) {
  const seen: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && !allowed(message.text())) seen.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => seen.push(`page: ${error.message}`));
  page.on("requestfailed", (request) => seen.push(`failed ${request.url()}: ${request.failure()?.errorText}`));
  return seen;
}
