import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { handleMessage } from "@usage-ingestion/records";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { firestore, uniqueId } from "../setup/harness.ts";
import { envelope, pushEvent, workerDeps } from "../setup/worker.ts";

async function admin(...args: string[]) {
  const lines: string[] = [];
  await runAdmin(args, firestore(), (line) => lines.push(line));
  return lines;
}

async function newOrg() {
  const org = uniqueId("acme");
  await admin("org", "create", org);
  return org;
}

const listed = async (org: string) => JSON.parse((await admin("pricing", "list", org)).join("\n")).prices;

describe("admin pricing: one entry at a time, explained, repriced with amounts", () => {
  it("adds one price from inline JSON or a file, replaces the same entry, and removes one entry", async () => {
    const org = await newOrg();
    expect(await admin("pricing", "add", org, '{"provider":"custom","model":"house","unit":"0.5"}')).toEqual([
      "added custom/house (always in effect)",
    ]);
    const path = join(mkdtempSync(join(tmpdir(), "price-")), "price.json");
    writeFileSync(
      path,
      JSON.stringify({ provider: "custom", model: "house", unit: "0.4", effective_from: "2026-01-01T00:00:00Z" }),
    );
    expect(await admin("pricing", "add", org, path)).toEqual(["added custom/house effective 2026-01-01T00:00:00Z"]);
    expect(await admin("pricing", "add", org, '{"provider":"custom","model":"house","unit":"0.6"}')).toEqual([
      "replaced custom/house (always in effect)",
      "added custom/house (always in effect)",
    ]);
    expect((await listed(org)).map((p: { unit: string }) => p.unit).sort()).toEqual(["0.4", "0.6"]);

    expect(
      await admin("pricing", "remove", org, "custom", "house", "--effective-from", "2026-01-01T00:00:00.000Z"),
    ).toEqual([`removed custom/house effective 2026-01-01T00:00:00.000Z; 1 custom price(s) left for ${org}`]);
    await expect(admin("pricing", "remove", org, "custom", "house", "--tier", "batch")).rejects.toThrow(
      /no custom price custom\/house tier batch .*its prices for custom\/house: custom\/house \(always in effect\)/,
    );
    expect(await listed(org)).toEqual([{ provider: "custom", model: "house", unit: "0.6" }]);
  });

  it("names a misspelt key and every known one", async () => {
    const org = await newOrg();
    const error = await admin("pricing", "add", org, '{"provider":"openai","model":"gpt-4o","input_mtk":"1"}').catch(
      (e: Error) => e,
    );
    expect((error as Error).message).toMatch(
      /^unknown price key `input_mtk`; known: input_mtok, cache_read_mtok, cache_write_mtok, /,
    );
    expect((error as Error).message).toContain("output_mtok");
    expect(await listed(org)).toEqual([]);
  });

  it("explains the rates that would apply and where each came from", async () => {
    const lines = await admin(
      "pricing",
      "explain",
      "anthropic",
      "claude-sonnet-4-20250514",
      "--at",
      "2025-10-15T12:00:00Z",
    );
    const text = lines.join("\n");
    expect(lines[0]).toBe(
      'anthropic model "claude-sonnet-4-20250514" priced as "claude-sonnet-4-0", received at 2025-10-15T12:00:00.000Z, tier standard',
    );
    expect(text).toMatch(/input_mtok +\$3 per 1,000,000 tokens +https:\/\/platform\.claude\.com/);
    expect(text).toMatch(/above 200000 prompt tokens, the whole call: \$6 per 1,000,000 tokens/);
    expect(text).toMatch(/cache_write_1h_mtok +\$6 per 1,000,000 tokens/);

    const batch = (
      await admin("pricing", "explain", "xai", "grok-4.3", "--at", "2026-10-01T00:00:00Z", "--tier", "batch")
    ).join("\n");
    expect(batch).toMatch(/input_mtok +\$1 per 1,000,000 tokens .*batch tier x0\.8/);
    await expect(admin("pricing", "explain", "anthropic", "claude-opus-4-1", "--tier", "priority")).rejects.toThrow(
      /unpriced: no price for model_tier "priority" of anthropic/,
    );
  });

  it("lists what reprice priced with the amounts, and shows it first with --dry-run", async () => {
    const org = await newOrg();
    const event = pushEvent(
      envelope(
        org,
        validTransaction({ provider: "custom", model: "house", usage: [{ type: "custom", metrics: { units: 4 } }] }),
      ),
    );
    expect(await handleMessage(workerDeps(), event)).toBe("unpriced");
    await admin("pricing", "add", org, '{"provider":"custom","model":"house","unit":"0.25"}');

    expect(await admin("reprice", org, "--dry-run")).toEqual([
      `message ${event.id}: would be re-priced, custom/house 1.000000000 USD`,
      "1 record would be re-priced, 0 still unpriced (dry run: nothing written)",
    ]);
    const path = DOCUMENT_PATHS.transaction(org, event.id as string);
    expect((await firestore().doc(path).get()).get("status")).toBe("unpriced");
    expect(await admin("reprice", org)).toEqual([
      `message ${event.id}: re-priced, custom/house 1.000000000 USD`,
      "1 record re-priced, 0 still unpriced",
    ]);
    expect((await firestore().doc(path).get()).get("cost_nanos")).toBe(1_000_000_000);
  });

  it("names each record by its message id and counts records, so an id never reads as a count", async () => {
    const org = await newOrg();
    const house = validTransaction({
      provider: "custom",
      model: "house",
      usage: [{ type: "custom", metrics: { units: 4 } }],
    });
    // Message ids that are small numbers, as the emulator hands out: the output must not mix them with counts.
    for (const id of ["7", "8"])
      expect(await handleMessage(workerDeps(), pushEvent(envelope(org, house), id))).toBe("unpriced");
    const unknown = pushEvent(envelope(org, validTransaction({ model: "no-such-model" })), "6");
    expect(await handleMessage(workerDeps(), unknown)).toBe("unpriced");
    await admin("pricing", "add", org, '{"provider":"custom","model":"house","unit":"0.25"}');

    const stillUnpriced = /^message 6: still unpriced \(unknown_model: openai model "no-such-model" .*\)$/;
    const dryRun = await admin("reprice", org, "--dry-run");
    expect(dryRun.slice(0, 2)).toEqual([
      "message 7: would be re-priced, custom/house 1.000000000 USD",
      "message 8: would be re-priced, custom/house 1.000000000 USD",
    ]);
    expect(dryRun[2]).toMatch(stillUnpriced);
    expect(dryRun.slice(3)).toEqual(["2 records would be re-priced, 1 still unpriced (dry run: nothing written)"]);

    const run = await admin("reprice", org);
    expect(run.slice(0, 2)).toEqual([
      "message 7: re-priced, custom/house 1.000000000 USD",
      "message 8: re-priced, custom/house 1.000000000 USD",
    ]);
    expect(run[2]).toMatch(stillUnpriced);
    expect(run.slice(3)).toEqual(["2 records re-priced, 1 still unpriced"]);

    const again = await admin("reprice", org);
    expect(again[0]).toMatch(stillUnpriced);
    expect(again.slice(1)).toEqual(["0 records re-priced, 1 still unpriced"]);
  });
});
