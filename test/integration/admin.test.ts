import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hashApiKey } from "@usage-ingestion/organizations";
import { handleMessage } from "@usage-ingestion/records";
import { DOCUMENT_PATHS, UserError } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { firestore, uniqueId } from "../setup/harness.ts";
import { rollupTotals } from "../setup/rollups.ts";
import { envelope, pushEvent, workerDeps } from "../setup/worker.ts";

async function admin(...args: string[]) {
  const lines: string[] = [];
  await runAdmin(args, firestore(), (line) => lines.push(line));
  return lines;
}

function pricingFile(content: unknown) {
  const path = join(mkdtempSync(join(tmpdir(), "pricing-")), "prices.json");
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

describe("admin command line on the Firestore emulator", () => {
  it("creates, lists, disables and enables organizations", async () => {
    const org = uniqueId("acme");
    expect(await admin("org", "create", org, "--name", "Acme Inc")).toEqual([`created organization ${org} (Acme Inc)`]);
    await expect(admin("org", "create", org)).rejects.toThrow(/already exists/);
    expect((await admin("org", "list")).some((line) => line.startsWith(`${org}\tactive`))).toBe(true);
    await admin("org", "disable", org);
    expect((await firestore().doc(DOCUMENT_PATHS.organization(org)).get()).get("status")).toBe("disabled");
    await admin("org", "enable", org);
    expect((await firestore().doc(DOCUMENT_PATHS.organization(org)).get()).get("status")).toBe("active");
  });

  it("prints a new key once, alone on the last line, and stores only its hash", async () => {
    const org = uniqueId("acme");
    await admin("org", "create", org);
    const lines = await admin("key", "create", org);
    const key = lines.at(-1) as string;
    expect(key).toMatch(/^usk_[A-Za-z0-9_-]{43}$/);
    const stored = await firestore()
      .doc(DOCUMENT_PATHS.apiKey(hashApiKey(key)))
      .get();
    expect(stored.data()).toMatchObject({ organization_id: org, status: "active", prefix: key.slice(0, 12) });
    expect(JSON.stringify(stored.data())).not.toContain(key);

    const listed = await admin("key", "list", org);
    expect(listed).toEqual([expect.stringMatching(new RegExp(`^${key.slice(0, 12)}\\.\\.\\.\\tactive\\t`))]);
    await admin("key", "disable", key.slice(0, 12));
    expect((await admin("key", "list", org))[0]).toContain("\tdisabled\t");
  });

  it("refuses user mistakes with a clear message", async () => {
    await expect(admin("key", "create", "no-such-org")).rejects.toThrow(/does not exist/);
    await expect(admin("key", "disable", "usk_nothing-like-this")).rejects.toThrow(/no key has the prefix/);
    await expect(admin("org", "create", "Bad Id!")).rejects.toBeInstanceOf(UserError);
    await expect(admin("frobnicate")).rejects.toThrow(/unknown command/);
  });

  it("refuses a pricing file with an unknown price key, naming the field", async () => {
    const org = uniqueId("acme");
    await admin("org", "create", org);
    const bad = pricingFile({ prices: [{ provider: "custom", model: "m", input_mtk: "1" }] });
    await expect(admin("pricing", "set", org, bad)).rejects.toThrow(/prices\.0\.input_mtk/);
    const negative = pricingFile({ prices: [{ provider: "custom", model: "m", unit: "-1" }] });
    await expect(admin("pricing", "set", org, negative)).rejects.toThrow(/prices\.0\.unit/);
    await expect(admin("pricing", "set", org, pricingFile("{"))).rejects.toThrow(/not valid JSON/);
  });

  it("sets and lists custom prices, and reprices unpriced records once prices exist", async () => {
    const org = uniqueId("acme");
    await admin("org", "create", org);
    const event = pushEvent(
      envelope(
        org,
        validTransaction({ provider: "custom", model: "house", usage: [{ type: "custom", metrics: { units: 10 } }] }),
      ),
    );
    expect(await handleMessage(workerDeps(), event)).toBe("unpriced");

    const file = pricingFile({ prices: [{ provider: "custom", model: "house", unit: 0.5 }] });
    expect(await admin("pricing", "set", org, file)).toEqual([`set 1 custom price(s) for ${org}`]);
    expect(JSON.parse((await admin("pricing", "list", org)).join("\n")).prices).toEqual([
      { provider: "custom", model: "house", unit: "0.5" },
    ]);

    expect(await admin("reprice", org)).toEqual([
      `message ${event.id}: re-priced, custom/house 5.000000000 USD`,
      "1 record re-priced, 0 still unpriced",
    ]);
    const repriced = (
      await firestore()
        .doc(DOCUMENT_PATHS.transaction(org, event.id as string))
        .get()
    ).data();
    expect(repriced).toMatchObject({
      status: "priced",
      unpriced_reason: null,
      cost_usd: "5.000000000",
      cost_nanos: 5_000_000_000,
      pricing: { source: "custom" },
      repriced_at: expect.any(String),
    });
    // The reports move with the record: 10 units x $0.50, no longer unpriced.
    expect(await rollupTotals(org)).toEqual({ transactions: 1, unpriced: 0, conflicts: 0, costNanos: 5_000_000_000n });
    const unpricedCells = await firestore().collection(DOCUMENT_PATHS.unpricedRollups(org)).get();
    expect(unpricedCells.docs.map((doc) => doc.get("transactions"))).toEqual([0]);
    expect(await admin("reprice", org)).toEqual(["0 records re-priced, 0 still unpriced"]);
  });
});
