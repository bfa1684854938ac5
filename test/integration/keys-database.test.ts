import { randomUUID } from "node:crypto";
import { Firestore } from "@google-cloud/firestore";
import { parseGatewayConfig } from "@usage-ingestion/gateway";
import {
  createApiKey,
  createOrganization,
  type Databases,
  firestoreKeyStore,
  hashApiKey,
  withKeysDatabase,
} from "@usage-ingestion/organizations";
import { DOCUMENT_PATHS, UserError } from "@usage-ingestion/shared";
import { afterAll, describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { adminProcess } from "../setup/admin-process.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { databases, firestore, pullableTopic, uniqueId } from "../setup/harness.ts";

// Keys in a Firestore database of their own (docs/decisions/0010), on the emulator's named databases: the
// admin command line writes them there, the gateway reads them there, and the records database holds none.

const opened: Databases[] = [];
/** The records database with a fresh keys database beside it, as server.ts builds it from KEYS_DATABASE. */
function apart(): Databases & { keysDatabase: string } {
  const keysDatabase = `keys-${randomUUID().slice(0, 8)}`;
  const pair = withKeysDatabase(
    firestore(),
    keysDatabase,
    (databaseId) => new Firestore({ projectId: process.env.GOOGLE_CLOUD_PROJECT, databaseId }),
  );
  opened.push(pair);
  return { ...pair, keysDatabase };
}
afterAll(async () => {
  await Promise.all(opened.map(({ keys }) => keys.terminate()));
});

const keyIn = (db: Firestore, key: string) => db.doc(DOCUMENT_PATHS.apiKey(hashApiKey(key))).get();

describe("API keys in a database apart from the records", () => {
  it("keeps them in the records' own database unless KEYS_DATABASE names another", () => {
    expect(parseGatewayConfig({}).KEYS_DATABASE).toBe("(default)");
    const same = withKeysDatabase(firestore(), "(default)", () => {
      throw new Error("no second client for the same database");
    });
    expect(same.keys).toBe(same.records);
    expect(parseGatewayConfig({ KEYS_DATABASE: "api-keys" }).KEYS_DATABASE).toBe("api-keys");
  });

  it("has the admin command line write keys there, and the gateway authenticate from there alone", async () => {
    const db = apart();
    const org = uniqueId("keys-apart");
    await createOrganization(firestore(), org);
    // The command line as an operator runs it, with the variable the gateway reads.
    const made = await adminProcess({ ...process.env, KEYS_DATABASE: db.keysDatabase }, "key", "create", org);
    expect(made.status, made.stderr).toBe(0);
    const key = made.stdout.trim().split("\n").at(-1) as string;
    expect((await keyIn(db.keys, key)).data()).toMatchObject({ organization_id: org, status: "active" });
    expect((await keyIn(firestore(), key)).exists).toBe(false);

    const topic = await pullableTopic();
    const send = async (keys: Databases) => {
      const gateway = await startTestGateway({ topicName: topic.topicName, keyStore: firestoreKeyStore(keys) });
      try {
        return (await gateway.post({ transactions: [validTransaction()] }, { "x-api-key": key })).status;
      } finally {
        await gateway.close();
      }
    };
    expect(await send(db)).toBe(202);
    // A gateway that reads keys from the records database does not know the key.
    expect(await send(databases())).toBe(401);
  });

  it("copies the records database's keys there with `key migrate`, leaving copied ones as they are", async () => {
    const db = apart();
    const org = uniqueId("keys-migrate");
    await createOrganization(firestore(), org);
    const first = await createApiKey(databases(), org);
    const second = await createApiKey(databases(), org, undefined, undefined, "read");
    const admin = async (...args: string[]) => {
      const lines: string[] = [];
      await runAdmin(args, firestore(), (line) => lines.push(line), { keysDb: db.keys });
      return lines;
    };

    const [copiedLine] = await admin("key", "migrate");
    const copied = Number(
      /^copied (\d+) keys into database (\S+); (\d+) were there already$/.exec(copiedLine ?? "")?.[1],
    );
    expect(copiedLine).toContain(`into database ${db.keysDatabase};`);
    // Every key of the records database, these two among them (other tests' keys are there too).
    expect(copied).toBeGreaterThanOrEqual(2);
    expect((await keyIn(db.keys, first.key)).data()).toEqual((await keyIn(firestore(), first.key)).data());
    expect((await keyIn(db.keys, second.key)).data()).toMatchObject({ scope: "read", status: "active" });

    // Disabled in the keys database since: a second copy does not bring it back.
    await admin("key", "disable", first.prefix);
    expect((await keyIn(db.keys, first.key)).data()?.status).toBe("disabled");
    expect((await keyIn(firestore(), first.key)).data()?.status).toBe("active");
    const [again] = await admin("key", "migrate");
    expect(again).toMatch(/^copied \d+ keys into database \S+; (\d+) were there already$/);
    expect(Number(/; (\d+) were there/.exec(again ?? "")?.[1])).toBeGreaterThanOrEqual(copied);
    expect((await keyIn(db.keys, first.key)).data()?.status).toBe("disabled");
  });

  it("refuses to copy keys onto themselves", async () => {
    await expect(runAdmin(["key", "migrate"], firestore(), () => {})).rejects.toThrow(UserError);
  });
});
