import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listAuditLog, operatorChange } from "@usage-ingestion/audit";
import { setDimensions } from "@usage-ingestion/organizations";
import {
  compareFigures,
  DAY_MS,
  finishRun,
  getRun,
  openCredential,
  reconciliationRow,
  replaceRows,
} from "@usage-ingestion/reconciliation";
import { DOCUMENT_PATHS, UserError } from "@usage-ingestion/shared";
import { secretBox } from "@usage-ingestion/webhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { firestore, reportsFirestore, seedOrganization } from "../setup/harness.ts";

// admin org connections and admin reconcile on the Firestore emulator.
const box = secretBox(randomBytes(32));
const operator = operatorChange("ops@example.com", "run-reconcile");
// Made-up credentials in each vendor's form.
const OPENAI_KEY = "sk-admin-AdminC1iTestKeyOnlyForThisTest";
const ANTHROPIC_KEY = "sk-ant-admin01-AdminC1iTestKeyOnlyForThisTest";
let stdin = "";
const printed: string[] = [];
const admin = async (...args: string[]) => {
  const lines: string[] = [];
  await runAdmin(
    args,
    firestore(),
    (line) => {
      lines.push(line);
      printed.push(line);
    },
    { webhookBox: () => box, change: operator, reportsDb: reportsFirestore(), stdin: async () => stdin },
  );
  return lines;
};
const refused = async (promise: Promise<unknown>, message: RegExp) => {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UserError);
  expect((error as Error).message).toMatch(message);
  printed.push((error as Error).message);
};
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const day = (n: number) => new Date(today - n * DAY_MS).toISOString().slice(0, 10);
let org: string;

beforeAll(async () => {
  org = (await seedOrganization()).organizationId;
  await setDimensions(firestore(), org, ["team"]);
});

describe("admin org connections", () => {
  it("connects a vendor with the credential piped in or in a file, never printing it", async () => {
    stdin = `${OPENAI_KEY}\n`;
    const set = await admin("org", "connections", "set", org, "openai", "--map", "project_id=team");
    expect(set[0]).toBe(`connected ${org} to openai; the credential is stored sealed`);
    expect(set[1]).toMatch(/^openai\tactive\t\S+\t-\t-\tproject_id=team$/);
    expect(await openCredential(firestore(), box, org, "openai")).toBe(OPENAI_KEY);

    const file = join(mkdtempSync(join(tmpdir(), "credential-")), "anthropic.key");
    writeFileSync(file, `${ANTHROPIC_KEY}\n`);
    stdin = "";
    expect((await admin("org", "connections", "set", org, "anthropic", "--credential-file", file))[0]).toBe(
      `connected ${org} to anthropic; the credential is stored sealed`,
    );
    expect(await openCredential(firestore(), box, org, "anthropic")).toBe(ANTHROPIC_KEY);
    expect(await admin("org", "connections", "list", org)).toEqual([
      expect.stringMatching(/^openai\tactive\t.*\tproject_id=team$/),
      expect.stringMatching(/^anthropic\tactive\t.*\t-$/),
    ]);
    const stored = JSON.stringify((await firestore().doc(DOCUMENT_PATHS.connection(org, "openai")).get()).data());
    expect(stored).not.toContain(OPENAI_KEY);
    const { entries } = await listAuditLog([firestore()], org);
    const connected = entries.filter((entry) => entry.action.startsWith("connection."));
    expect(connected.map((entry) => [entry.action, entry.actor.id])).toEqual([
      ["connection.created", "ops@example.com"],
      ["connection.created", "ops@example.com"],
    ]);
    expect(JSON.stringify(entries)).not.toContain("AdminC1iTestKey");
  });

  it("refuses a credential given as an argument, a bad mapping or vendor, and a wrong credential, unsaid", async () => {
    await refused(admin("org", "connections", "set", org, "openai", "--credential", OPENAI_KEY), /usage/);
    stdin = OPENAI_KEY;
    await refused(admin("org", "connections", "set", org, "openai", "--map", "project_id"), /FIELD=DIMENSION/);
    await refused(admin("org", "connections", "set", org, "openai", "--map", "project_id=region"), /region/);
    await refused(admin("org", "connections", "set", org, "mistral"), /openai, anthropic, gemini, bedrock/);
    await refused(admin("org", "connections", "set", org, "anthropic"), /not an Anthropic Admin API key/);
    await refused(
      admin("org", "connections", "set", org, "openai", "--credential-file", "/nonexistent/key"),
      /cannot read/,
    );
    stdin = "";
    await refused(admin("org", "connections", "set", org, "openai"), /credential is empty/);
    // What was refused changed nothing.
    expect(await openCredential(firestore(), box, org, "openai")).toBe(OPENAI_KEY);
  });

  it("removes a connection and its credential", async () => {
    expect(await admin("org", "connections", "delete", org, "anthropic")).toEqual([
      `removed the anthropic connection of ${org} and its credential`,
    ]);
    await refused(admin("org", "connections", "delete", org, "anthropic"), /has no anthropic connection/);
    expect((await admin("org", "connections", "list", org)).map((line) => line.split("\t")[0])).toEqual(["openai"]);
  });
});

describe("admin reconcile", () => {
  it("queues a run over whole days and shows its state; refuses an organization connected to nothing", async () => {
    const queued = await admin("reconcile", "run", org, "--from", day(3), "--to", day(1));
    const id = /queued run (run_\w+) /.exec(queued[0] as string)?.[1] as string;
    expect(queued[0]).toBe(`queued run ${id} of ${org} over ${day(3)} to ${day(1)} (excluded)`);
    expect(await admin("reconcile", "status", org, id)).toEqual([`${id}\tqueued\t${day(3)}\t${day(1)}\t-`]);
    // Done as a tick would end it (nothing left queued for other tests' ticks): its vendors shown.
    const run = await getRun(firestore(), org, id);
    const result = {
      vendor: "openai" as const,
      rows: 2,
      classes: { matched: 1, vendor_only: 1 },
      alerted: [day(2)],
      error: null,
    };
    await finishRun(firestore(), run, [result], new Date());
    expect(await admin("reconcile", "status", org, id)).toEqual([
      expect.stringMatching(new RegExp(`^${id}\tsucceeded\t${day(3)}\t${day(1)}\t\\S+$`)),
      `openai\t2 rows\tmatched 1, vendor_only 1\talerted ${day(2)}\t-`,
    ]);
    await refused(admin("reconcile", "run", org, "--from", day(1), "--to", day(3)), /later day than from/);
    await refused(admin("reconcile", "run", org, "--from", day(1)), /usage/);
    const lonely = (await seedOrganization()).organizationId;
    await refused(admin("reconcile", "run", lonely, "--from", day(3), "--to", day(1)), /connected to no vendor/);
  });

  it("shows the stored rows with their split, filtered, and the rows per class", async () => {
    const tokens = (input: number, output: number) => ({
      input_tokens: input,
      output_tokens: output,
      cached_tokens: 0,
      cache_creation_input_tokens: 0,
    });
    const comparisons = compareFigures(
      [
        {
          day: day(2),
          model: "gpt-4o-mini",
          split: "proj_a",
          tokens: tokens(10, 1),
          cost_nanos: 2_100n,
          transactions: 1,
          unpriced_transactions: 0,
        },
      ],
      [
        {
          day: day(2),
          model: "gpt-4o-mini-2024-07-18",
          split: "proj_a",
          tokens: tokens(10, 1),
          cost_nanos: 2_100n,
          components: {},
        },
        {
          day: day(2),
          model: "gpt-4o-mini-2024-07-18",
          split: null,
          tokens: tokens(1_000, 0),
          cost_nanos: 150_000n,
          components: {},
        },
      ],
    );
    const split = { vendor_field: "project_id", dimension: "team" };
    const rows = comparisons.map((comparison) =>
      reconciliationRow("openai", comparison, null, "run_cli", new Date(), split),
    );
    await replaceRows(firestore(), org, "openai", { from: new Date(today - 3 * DAY_MS), to: new Date(today) }, rows);
    expect(await admin("reconcile", "show", org, "--from", day(3), "--to", day(0), "--provider", "openai")).toEqual([
      `${day(2)}\topenai\tgpt-4o-mini\tteam=(none)\tvendor_only\t0.000000000\t0.000150000\t0.000150000`,
      `${day(2)}\topenai\tgpt-4o-mini\tteam=proj_a\tmatched\t0.000002100\t0.000002100\t0.000000000`,
      "2 rows: matched 1, vendor_only 1, ours_only 0, count_mismatch 0, price_mismatch 0",
    ]);
    expect(await admin("reconcile", "show", org, "--from", day(3), "--to", day(0), "--model", "o3")).toEqual([
      "0 rows: matched 0, vendor_only 0, ours_only 0, count_mismatch 0, price_mismatch 0",
    ]);
    await refused(admin("reconcile", "show", org, "--provider", "mistral"), /--provider.*must be one of: openai/);
    await refused(admin("reconcile", "show", org, "--limit", "3"), /unknown option --limit/);
  });

  it("shows and changes the tolerance and drift threshold, each change audited", async () => {
    expect(await admin("reconcile", "settings", "show", org)).toEqual([
      "tolerance\t1%\t0.010000000 USD",
      "drift_threshold\t1%\t0.010000000 USD",
      "updated_at\tnever (the defaults)",
    ]);
    const set = await admin(
      "reconcile",
      "settings",
      "set",
      org,
      "--tolerance-percent",
      "2.5",
      "--drift-threshold-usd",
      "5",
    );
    expect(set.slice(0, 2)).toEqual(["tolerance\t2.5%\t0.010000000 USD", "drift_threshold\t1%\t5.000000000 USD"]);
    // Those not given stay; "default" takes one back.
    const again = await admin("reconcile", "settings", "set", org, "--drift-threshold-usd", "default");
    expect(again.slice(0, 2)).toEqual(["tolerance\t2.5%\t0.010000000 USD", "drift_threshold\t1%\t0.010000000 USD"]);
    await refused(
      admin("reconcile", "settings", "set", org, "--tolerance-percent", "150"),
      /--tolerance-percent.*must be at most 100/,
    );
    await refused(
      admin("reconcile", "settings", "set", org, "--tolerance-usd", "ten"),
      /--tolerance-usd.*must be a decimal/,
    );
    const { entries } = await listAuditLog([firestore()], org);
    expect(entries.filter((entry) => entry.action === "reconciliation_settings.updated")).toHaveLength(2);
  });

  it("never printed a credential, in any answer or refusal", () => {
    expect(printed.join("\n")).not.toContain("AdminC1iTestKey");
  });
});
