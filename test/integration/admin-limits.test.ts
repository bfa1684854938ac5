import { UserError } from "@usage-ingestion/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { firestore, pullableTopic, seedOrganization } from "../setup/harness.ts";

const admin = async (...args: string[]) => {
  const lines: string[] = [];
  await runAdmin(args, firestore(), (line) => lines.push(line));
  return lines;
};

let org: Awaited<ReturnType<typeof seedOrganization>>;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;
beforeAll(async () => {
  org = await seedOrganization();
  gateway = await startTestGateway({ topicName: (await pullableTopic()).topicName });
});
afterAll(() => gateway?.close());

describe("admin org limits", () => {
  it("shows the gateway's defaults until the organization has its own", async () => {
    expect(await admin("org", "limits", "show", org.organizationId)).toEqual([
      "ingest_transactions_per_second\t1000\tdefault",
      "ingest_burst_transactions\t10000\tdefault",
      "reports_per_minute\t120\tdefault",
    ]);
  });

  it("sets an organization's own limit, which the gateway applies to its keys", async () => {
    const set = await admin(
      "org",
      "limits",
      "set",
      org.organizationId,
      "--ingest-transactions-per-second",
      "2",
      "--ingest-burst-transactions",
      "0",
    );
    expect(set).toEqual([
      "ingest_transactions_per_second\t2\town",
      "ingest_burst_transactions\t0\town",
      "reports_per_minute\t120\tdefault",
    ]);
    const bulk = { transactions: [validTransaction(), validTransaction(), validTransaction()] };
    const refused = await gateway.post(bulk, { "X-Api-Key": org.apiKey });
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.message).toContain("2 transactions a second (burst 0) for the organization");
  });

  it("goes back to the default with `default`, and refuses what is not a limit", async () => {
    const reset = await admin(
      "org",
      "limits",
      "set",
      org.organizationId,
      "--ingest-transactions-per-second",
      "default",
    );
    expect(reset[0]).toBe("ingest_transactions_per_second\t1000\tdefault");
    await expect(admin("org", "limits", "set", org.organizationId, "--reports-per-minute", "-1")).rejects.toThrow(
      UserError,
    );
    await expect(admin("org", "limits", "set", org.organizationId, "--constructor", "1")).rejects.toThrow(UserError);
    await expect(admin("org", "limits", "show", "no-such-org")).rejects.toThrow(UserError);
  });
});
