import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** `npm run canary` as a process: it cannot reach Google here, so only what it does before that. */
const canary = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ["--import", "tsx", "scripts/canary/main.ts", ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });

describe("npm run canary", () => {
  it("refuses to run against the emulators, exits 2 and says why, before touching anything", () => {
    const run = canary(["--project", "acme-prod", "--topic", "canary"], {
      PUBSUB_EMULATOR_HOST: process.env.PUBSUB_EMULATOR_HOST ?? "localhost:8085",
      FIRESTORE_EMULATOR_HOST: process.env.FIRESTORE_EMULATOR_HOST ?? "localhost:8080",
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/refusing to run: PUBSUB_EMULATOR_HOST, FIRESTORE_EMULATOR_HOST are set/);
    expect(run.stdout).toBe("");
  });

  it("prints its usage with --help, and what it needs when run without arguments", () => {
    const help = canary(["--help"], {});
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage: npm run canary -- --project PROJECT_ID --topic TOPIC/);
    const bare = canary([], {});
    expect(bare.status).toBe(2);
    expect(bare.stderr).toMatch(/needs a project: --project or GOOGLE_CLOUD_PROJECT and a topic/);
  });
});
