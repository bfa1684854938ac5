import { handleMessage } from "@usage-ingestion/records";
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

/** A day no other test receives transactions on: the audit reads every organization. */
const DAY = "2025-02-28";
const received = (org: string, transaction: Record<string, unknown>) =>
  pushEvent({ ...envelope(org, transaction), received_at: `${DAY}T10:00:00.000Z` });

describe("admin pricing audit", () => {
  it("lists models seen unpriced and priced only by the catalog, with counts, and stale table rows", async () => {
    const org = uniqueId("acme");
    await admin("org", "create", org);
    const unknown = uniqueId("gpt-audit").toLowerCase();
    for (let i = 0; i < 2; i++) await handleMessage(workerDeps(), received(org, validTransaction({ model: unknown })));
    // o3-mini: the catalog's price, no row of our table.
    for (let i = 0; i < 3; i++)
      await handleMessage(workerDeps(), received(org, validTransaction({ model: "o3-mini" })));
    // gpt-4o has rows of our own: never listed as a catalog fallback.
    await handleMessage(workerDeps(), received(org, validTransaction({ model: "gpt-4o" })));

    const lines = await admin("pricing", "audit", "--from", `${DAY}T00:00:00Z`, "--to", "2025-03-01T00:00:00Z");
    expect(lines[0]).toBe(
      "pricing audit from 2025-02-28T00:00:00.000Z to 2025-03-01T00:00:00.000Z, every organization",
    );
    expect(lines).toContain(`  openai\t${unknown}\t-\t2\tunknown_model`);
    expect(lines).toContain("  openai\to3-mini\t-\t3");
    expect(lines.filter((line) => line.startsWith("  openai\tgpt-4o\t"))).toEqual([]);
    // Our table's Gemini rows from the 2025-10-02 copy are more than 90 days old; the 2026-11-22 readings are not.
    const stale = lines.slice(lines.findIndex((line) => line.startsWith("table rows read more than 90 days")));
    expect(stale.some((line) => line.includes("read 2025-10-02") && line.startsWith("  gemini\t"))).toBe(true);
    expect(stale.some((line) => line.includes("read 2026-11-22"))).toBe(false);
    // It reads every organization on the emulator: as many as the whole suite has made by then.
  }, 180_000);

  it("refuses a bad range or option with the reports' own message", async () => {
    await expect(admin("pricing", "audit", "--from", "yesterday")).rejects.toThrow(/from/);
    await expect(admin("pricing", "audit", "--since", "2025-01-01")).rejects.toThrow(
      "usage: npm run admin -- pricing audit [--from ISO] [--to ISO]",
    );
  });
});
