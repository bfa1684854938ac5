import { randomUUID } from "node:crypto";
import { Firestore } from "@google-cloud/firestore";
import { listAuditLog, operatorChange } from "@usage-ingestion/audit";
import { createOrganization } from "@usage-ingestion/organizations";
import { DOCUMENT_PATHS, UserError } from "@usage-ingestion/shared";
import {
  DAY_MS,
  dispatchEvents,
  generateSecretKey,
  MAX_WEBHOOKS_PER_ORGANIZATION,
  parseSecretKey,
  secretBox,
  type WebhookDocument,
} from "@usage-ingestion/webhooks";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { uniqueId } from "../setup/harness.ts";
import { createEvent, deliveryPipeline, type Received, startReceiver, until } from "../setup/webhooks.ts";

// admin webhook create|list|delete|rotate-secret on the Firestore emulator; rotation checked on real
// deliveries to a receiver on loopback.
const db = new Firestore({ projectId: `demo-admin-webhooks-${randomUUID().slice(0, 8)}` });
const box = secretBox(parseSecretKey(generateSecretKey()));
const timing = { timeoutMs: 3_000, sweepAfterMs: 60_000, retryWindowMs: DAY_MS };
let pipeline: Awaited<ReturnType<typeof deliveryPipeline>>;

// The run's operator, as runAdmin takes it from operator.ts on a real run.
const operator = operatorChange("ops@example.com", "run-webhooks");
const admin = async (...args: string[]) => {
  const lines: string[] = [];
  await runAdmin(args, db, (line) => lines.push(line), {
    webhookBox: () => box,
    deliveryQueue: () => pipeline.queue,
    change: operator,
  });
  return lines;
};
const refused = (promise: Promise<unknown>, message: RegExp) =>
  expect(promise).rejects.toSatisfy((error) => error instanceof UserError && message.test((error as Error).message));

async function organization() {
  const organizationId = uniqueId("org");
  await createOrganization(db, organizationId, "Webhook admin test");
  return organizationId;
}
const idOf = (lines: string[]) => /created webhook (\S+)/.exec(lines[0] as string)?.[1] as string;
const verifies = (secret: string, request: Received) => {
  try {
    new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    return true;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return false;
    throw error;
  }
};

beforeAll(async () => {
  pipeline = await deliveryPipeline(db, box, timing);
});
afterAll(async () => {
  await pipeline?.close();
  await db.terminate();
});

describe("admin webhook", () => {
  it("records each change with the operator who ran it, never an unknown one", async () => {
    const org = await organization();
    const id = idOf(await admin("webhook", "create", org, "https://hooks.example.com/budgets"));
    await admin("webhook", "disable", org, id);
    await admin("webhook", "rotate-secret", org, id, "--overlap-hours", "0");
    await admin("webhook", "delete", org, id);
    // The organization's own creation is audited too, by whoever seeded it: only the webhook's are this run's.
    const entries = (await listAuditLog([db], org)).entries.filter((entry) => entry.action.startsWith("webhook."));
    expect(entries.map((entry) => entry.action).sort()).toEqual(
      ["webhook.created", "webhook.deleted", "webhook.disabled", "webhook.secret_rotated"].sort(),
    );
    for (const entry of entries) {
      expect(entry.actor).toEqual({ type: "operator", id: "ops@example.com" });
      expect(entry.request_id).toBe("run-webhooks");
    }
  });

  it("creates a webhook, shows its secret once and stores it encrypted; lists and deletes it", async () => {
    const org = await organization();
    const created = await admin("webhook", "create", org, "https://hooks.example.com/budget", "--description", "ops");
    const id = idOf(created);
    expect(created[0]).toBe(
      `created webhook ${id} for ${org}: https://hooks.example.com/budget (budget.threshold_crossed, budget.forecast_exceeded, reconciliation.drift)`,
    );
    const secret = created.at(-1) as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const stored = (await db.doc(DOCUMENT_PATHS.webhook(org, id)).get()).data() as WebhookDocument;
    expect(JSON.stringify(stored)).not.toContain(secret.slice(6, 26));
    expect(stored).toMatchObject({ status: "active", url: "https://hooks.example.com/budget", description: "ops" });

    const listed = await admin("webhook", "list", org);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatch(
      new RegExp(
        `^${id}\\tactive\\tbudget.threshold_crossed,budget.forecast_exceeded,reconciliation.drift\\t\\S+\\twhsec_${secret.slice(6, 12).replace(/[+/]/g, "\\$&")}\\.\\.\\.\\thttps://hooks.example.com/budget$`,
      ),
    );
    expect(listed.join("\n")).not.toContain(secret);

    expect(await admin("webhook", "delete", org, id)).toEqual([`deleted webhook ${id} of ${org}`]);
    expect(await admin("webhook", "list", org)).toEqual(["no webhooks"]);
    await refused(admin("webhook", "delete", org, id), /has no webhook/);
  });

  it("takes one event type when asked, and refuses bad URLs, unknown types and organizations", async () => {
    const org = await organization();
    const created = await admin(
      "webhook",
      "create",
      org,
      "http://localhost:9999/x",
      "--events",
      "budget.forecast_exceeded",
    );
    expect(created[0]).toContain("(budget.forecast_exceeded)");
    await refused(admin("webhook", "create", org, "http://hooks.example.com/x"), /must be https/);
    await refused(admin("webhook", "create", org, "ftp://hooks.example.com/x"), /must be https/);
    await refused(admin("webhook", "create", org, "not a url"), /is not a URL/);
    await refused(admin("webhook", "create", org, "https://user:pw@hooks.example.com/x"), /user name or password/);
    await refused(admin("webhook", "create", org, `https://hooks.example.com/${"a".repeat(2048)}`), /longer than 2048/);
    const reserved = ["198.18.0.1", "224.0.0.1", "240.0.0.1", "[64:ff9b::a00:1]", "[ff02::1]"];
    for (const host of ["169.254.169.254", "10.1.2.3", "192.168.0.10", "[fd00::1]", "127.0.0.2", ...reserved]) {
      await refused(admin("webhook", "create", org, `https://${host}/x`), /private or local address/);
    }
    await refused(
      admin("webhook", "create", org, "https://hooks.example.com/x", "--events", "budget.spent"),
      /unknown event type budget.spent/,
    );
    await refused(
      admin("webhook", "create", org, "https://hooks.example.com/x", "--colour", "red"),
      /unknown option --colour/,
    );
    await refused(admin("webhook", "create", "no-such-org", "https://hooks.example.com/x"), /does not exist/);
    await refused(admin("webhook", "rotate-secret", org, "wh_missing"), /has no webhook/);
  });

  it(`allows at most ${MAX_WEBHOOKS_PER_ORGANIZATION} webhooks per organization`, async () => {
    const org = await organization();
    for (let i = 1; i < MAX_WEBHOOKS_PER_ORGANIZATION; i++)
      await admin("webhook", "create", org, `https://h.example.com/${i}`);
    const both = await Promise.allSettled([
      admin("webhook", "create", org, "https://h.example.com/a"),
      admin("webhook", "create", org, "https://h.example.com/b"),
    ]);
    expect(both.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    await refused(admin("webhook", "create", org, "https://h.example.com/c"), /has 20 webhooks, the most it may have/);
    expect(await admin("webhook", "list", org)).toHaveLength(MAX_WEBHOOKS_PER_ORGANIZATION);
  });

  it("sends nothing to a disabled webhook, and again once it is enabled", async () => {
    const receiver = await startReceiver();
    try {
      const org = await organization();
      const id = idOf(await admin("webhook", "create", org, receiver.url));
      expect(await admin("webhook", "disable", org, id)).toEqual([`webhook ${id} of ${org} is disabled`]);
      const missed = await createEvent(db, org, { threshold: 50 });
      await dispatchEvents({ db, queue: pipeline.queue, timing });
      expect((await db.doc(DOCUMENT_PATHS.webhookDelivery(org, id, missed.id)).get()).exists).toBe(false);
      expect((await admin("webhook", "list", org))[0]?.split("\t")[1]).toBe("disabled");

      expect(await admin("webhook", "enable", org, id)).toEqual([`webhook ${id} of ${org} is active`]);
      const sent = await createEvent(db, org, { threshold: 80 });
      await dispatchEvents({ db, queue: pipeline.queue, timing });
      const request = await until(() => receiver.received[0]);
      expect(request.headers["webhook-id"]).toBe(`${sent.id}.${id}`);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("rotates the secret: both sign during the overlap, then only the new one", async () => {
    const receiver = await startReceiver();
    try {
      const org = await organization();
      const created = await admin("webhook", "create", org, receiver.url);
      const [id, first] = [idOf(created), created.at(-1) as string];
      const rotated = await admin("webhook", "rotate-secret", org, id, "--overlap-hours", "2");
      const second = rotated.at(-1) as string;
      expect(rotated[0]).toMatch(new RegExp(`^rotated the secret of webhook ${id}; the previous one signs too until `));
      expect(second).not.toBe(first);
      expect((await admin("webhook", "list", org))[0]?.split("\t")[4]?.split(",")).toHaveLength(2);

      await createEvent(db, org, { threshold: 50 });
      await dispatchEvents({ db, queue: pipeline.queue, timing });
      const during = await until(() => receiver.received[0]);
      expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
      expect([verifies(first, during), verifies(second, during)]).toEqual([true, true]);

      // No overlap: the previous secrets stop signing at once.
      const third = (await admin("webhook", "rotate-secret", org, id, "--overlap-hours", "0")).at(-1) as string;
      await createEvent(db, org, { threshold: 80 });
      await dispatchEvents({ db, queue: pipeline.queue, timing });
      const after = await until(() => receiver.received[1]);
      expect([verifies(first, after), verifies(second, after), verifies(third, after)]).toEqual([false, false, true]);
      await refused(admin("webhook", "rotate-secret", org, id, "--overlap-hours", "169"), /at most|up to 168/);

      // Rotations within one overlap keep every secret promised: past five signing, a rotation is refused.
      for (let i = 0; i < 4; i++) await admin("webhook", "rotate-secret", org, id, "--overlap-hours", "2");
      await refused(admin("webhook", "rotate-secret", org, id, "--overlap-hours", "2"), /5 secrets still signing/);
      expect((await admin("webhook", "list", org))[0]?.split("\t")[4]?.split(",")).toHaveLength(5);
      await admin("webhook", "rotate-secret", org, id, "--overlap-hours", "0");
      expect((await admin("webhook", "list", org))[0]?.split("\t")[4]?.split(",")).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});
