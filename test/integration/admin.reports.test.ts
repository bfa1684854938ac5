import { hashApiKey } from "@usage-ingestion/organizations";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { seedUsage } from "../../scripts/lib/seed-usage.ts";
import { firestore, reportsFirestore, uniqueId } from "../setup/harness.ts";

async function admin(...args: string[]) {
  const lines: string[] = [];
  await runAdmin(args, firestore(), (line) => lines.push(line), { reportsDb: reportsFirestore() });
  return lines;
}

describe("admin: key scopes, dimensions and costs", () => {
  it("creates read keys with --scope read, ingest keys by default, and lists the scope", async () => {
    const org = uniqueId("acme");
    await admin("org", "create", org);
    const ingest = (await admin("key", "create", org)).at(-1) as string;
    const read = (await admin("key", "create", org, "--scope", "read")).at(-1) as string;
    expect(
      (
        await firestore()
          .doc(DOCUMENT_PATHS.apiKey(hashApiKey(read)))
          .get()
      ).get("scope"),
    ).toBe("read");
    expect(
      (
        await firestore()
          .doc(DOCUMENT_PATHS.apiKey(hashApiKey(ingest)))
          .get()
      ).get("scope"),
    ).toBe("ingest");
    const listed = await admin("key", "list", org);
    expect(listed.map((line) => line.split("\t")[3]).sort()).toEqual(["ingest", "read"]);
    await expect(admin("key", "create", org, "--scope", "owner")).rejects.toThrow(
      /--scope must be one of: ingest, read, admin/,
    );
  });

  it("declares context dimensions, shows them, and refuses too many or bad names", async () => {
    const org = uniqueId("acme");
    await admin("org", "create", org);
    expect(await admin("org", "dimensions", "set", org, "feature", "team")).toEqual([
      `${org} reports on context keys: feature, team`,
    ]);
    expect(await admin("org", "dimensions", "list", org)).toEqual(["feature\nteam"]);
    expect((await admin("org", "list")).find((line) => line.startsWith(`${org}\t`))).toContain("\tfeature,team\t");
    const eleven = Array.from({ length: 11 }, (_, i) => `d${i}`);
    await expect(admin("org", "dimensions", "set", org, ...eleven)).rejects.toThrow(/at most 10/);
    await expect(admin("org", "dimensions", "set", org, "a,b")).rejects.toThrow(/must be 1-64 letters/);
    await expect(admin("org", "dimensions", "set", org, "team", "__kind__")).rejects.toThrow(/Firestore reserves/);
    await expect(admin("org", "dimensions", "set", "no-such-org", "x")).rejects.toThrow(/does not exist/);
  });

  it("prints the cost report grouped as asked, with the route's numbers", async () => {
    const org = uniqueId("acme");
    await admin("org", "create", org);
    await admin("org", "dimensions", "set", org, "feature");
    await seedUsage(
      firestore(),
      org,
      ["feature"],
      [
        {
          received_at: "2026-06-01T10:00:00.000Z",
          customer: "acme",
          context: { feature: "chat" },
          cost_nanos: 1_250_000_000,
        },
        { received_at: "2026-06-01T11:00:00.000Z", customer: "globex", model: "gpt-4o-mini", cost_nanos: 5 },
      ],
    );
    const lines = await admin("costs", org, "--from", "2026-06-01", "--to", "2026-06-02", "--by", "customer,model");
    expect(lines[0]).toBe("costs received in [2026-06-01T00:00:00.000Z, 2026-06-02T00:00:00.000Z)");
    expect(lines.slice(1).map((line) => line.split(/\s+/))).toEqual([
      ["billable_customer_id", "model", "cost_usd", "transactions", "unpriced", "conflicts"],
      ["acme", "gpt-4o", "1.250000000", "1", "0", "0"],
      ["globex", "gpt-4o-mini", "0.000000005", "1", "0", "0"],
      ["TOTAL", "1.250000005", "2", "0", "0"],
    ]);
    const csv = await admin(
      "costs",
      org,
      "--from",
      "2026-06-01",
      "--to",
      "2026-06-02",
      "context.feature=chat",
      "--csv",
    );
    expect(csv[0]?.split("\r\n").at(-1)).toMatch(/^total,1\.250000000,1250000000,1,/);
    await expect(admin("costs", org, "--by", "colour")).rejects.toThrow(/--by colour must be one of/);
  });
});
