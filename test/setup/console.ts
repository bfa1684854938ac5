import { operatorChange } from "@usage-ingestion/audit";
import { inviteMember } from "@usage-ingestion/members";
import { createOrganization, setDimensions } from "@usage-ingestion/organizations";
import type { Browser, Page } from "playwright-core";
import { launchChromium, pageProblems, signInToConsole } from "./console-browser.ts";
import { firestore, pullableTopic, uniqueId } from "./harness.ts";
import { signInFixture } from "./sign-in.ts";

/**
 * The console's tests' world: a gateway with sign-in that also takes usage, an organization (declaring
 * `dimensions`) with an owner, an admin and a viewer, a second organization of the owner's, and Chromium.
 * With `secretKey`, the gateway seals webhook secrets and vendor credentials with it (a test's worker
 * then opens them).
 */
export async function consoleFixture(dimensions: string[] = [], options: { secretKey?: Buffer } = {}) {
  const people = {
    owner: `${uniqueId("owner")}@example.com`,
    admin: `${uniqueId("admin")}@example.com`,
    viewer: `${uniqueId("viewer")}@example.com`,
  };
  const org = uniqueId("org");
  const other = uniqueId("other");
  const topic = await pullableTopic();
  const gateway = await signInFixture(
    Object.values(people).map((email) => ({ email, emailVerified: true })),
    { ingestTopic: topic.topicName, ...options },
  );
  await createOrganization(firestore(), org, "Console test");
  await createOrganization(firestore(), other, "Second organization");
  if (dimensions.length > 0) await setDimensions(firestore(), org, dimensions);
  const change = operatorChange("test");
  await inviteMember(firestore(), org, people.owner, "owner", change);
  await inviteMember(firestore(), other, people.owner, "owner", change);
  await inviteMember(firestore(), org, people.admin, "admin", change);
  await inviteMember(firestore(), org, people.viewer, "viewer", change);
  const browser: Browser = await launchChromium();

  /** A fresh browser context signed in as `email`, on `path`; its console errors and failures collected. */
  async function signedIn(email: string, path?: string): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Reports on a loaded machine (the whole suite at once, two cores) can take tens of seconds.
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    // Before sign-in, GET /v1/me answers 401, which the browser logs.
    const problems = pageProblems(page, (text) => text.includes("401"));
    await signInToConsole(page, gateway.baseUrl, email, path);
    return { page, problems };
  }

  return {
    gateway,
    people,
    org,
    other,
    signedIn,
    close: async () => {
      await browser.close();
      await gateway.close();
    },
  };
}
