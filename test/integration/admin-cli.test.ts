import { spawnSync } from "node:child_process";
import { COLLECTIONS } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/lib/services.ts";
import { firestore, uniqueId } from "../setup/harness.ts";

/** The admin command line as an operator runs it, with the emulator variables set (they win over a local stack). */
describe("admin command line as a process", () => {
  it("acts on the emulator without the metadata server warning", { timeout: 60_000 }, async () => {
    const { METADATA_SERVER_DETECTION: _, ...env } = process.env;
    const org = uniqueId("quiet");
    const created = spawnSync(process.execPath, ["--import", "tsx", "scripts/admin/main.ts", "org", "create", org], {
      cwd: REPO_ROOT,
      env,
      encoding: "utf8",
    });
    expect(created.status).toBe(0);
    expect(created.stdout.trim()).toBe(`created organization ${org} (${org})`);
    // Only the line that names the target: no metadata server warning.
    expect(created.stderr).toBe(
      `admin: project ${env.GOOGLE_CLOUD_PROJECT}, Firestore emulator ${env.FIRESTORE_EMULATOR_HOST}, Pub/Sub emulator ${env.PUBSUB_EMULATOR_HOST} (from the environment); keys database: (default)\n`,
    );
    expect((await firestore().collection(COLLECTIONS.organizations).doc(org).get()).get("status")).toBe("active");
  });
});
