import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOrganization } from "@usage-ingestion/organizations";
import { generateSecretKey } from "@usage-ingestion/webhooks";
import { describe, expect, it } from "vitest";
import {
  adminTarget,
  type LocalStackState,
  readLocalStackState,
  removeLocalStackState,
  writeLocalStackState,
} from "../../scripts/lib/local-stack-state.ts";
import { adminProcess, freshShellEnv } from "../setup/admin-process.ts";
import { firestore, uniqueId } from "../setup/harness.ts";

/** What the test run's emulators look like as a local stack's state file. */
function stateFile(overrides: Partial<LocalStackState> = {}) {
  const path = join(mkdtempSync(join(tmpdir(), "local-stack-")), "state.json");
  const state: LocalStackState = {
    projectId: process.env.GOOGLE_CLOUD_PROJECT as string,
    firestoreEmulatorHost: process.env.FIRESTORE_EMULATOR_HOST as string,
    pubsubEmulatorHost: process.env.PUBSUB_EMULATOR_HOST as string,
    pubsubTopic: "usage-transactions",
    gatewayUrl: "http://127.0.0.1:8080",
    pid: process.pid,
    startedAt: new Date().toISOString(),
    ...overrides,
  };
  expect(writeLocalStackState(state, path)).toEqual({ written: true });
  return { path, state };
}

/** A shell with none of the variables that choose the target, as in a fresh terminal. */
const freshEnv = (statePath: string, extra: NodeJS.ProcessEnv = {}) =>
  freshShellEnv({ LOCAL_STACK_STATE_FILE: statePath, ...extra });
const admin = adminProcess;

const deadPid = () => {
  const gone = spawnSync(process.execPath, ["-e", ""]);
  return gone.pid as number;
};

describe("the admin command line finds the local stack by itself", () => {
  it("reads the running stack's file when no variable is set, saying so in one line on stderr", async () => {
    const org = uniqueId("found");
    await createOrganization(firestore(), org);
    const { path, state } = stateFile();

    const listed = await admin(freshEnv(path), "org", "list");
    expect(listed.stderr).toBe(
      `admin: project ${state.projectId}, Firestore emulator ${state.firestoreEmulatorHost}, Pub/Sub emulator ${state.pubsubEmulatorHost} (the local stack); keys database: (default)\n`,
    );
    expect(listed.status).toBe(0);
    expect(listed.stdout.split("\n")).toContainEqual(expect.stringMatching(new RegExp(`^${org}\tactive\t`)));

    // stdout stays parseable: the new key alone on its last line.
    const created = await admin(freshEnv(path), "key", "create", org, "--scope", "read");
    expect(created.status).toBe(0);
    expect(created.stderr.trim().split("\n")).toHaveLength(1);
    const lines = created.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^\S{20,}$/);

    // Found by its file (no emulator variable in the shell), the local stack takes a receiver on this machine.
    const { path: withKey } = stateFile({ webhookSecretKey: generateSecretKey() });
    const webhook = await admin(freshEnv(withKey), "webhook", "create", org, "http://localhost:9999/hooks");
    expect(webhook.stderr).toMatch(/\(the local stack\)/);
    expect(webhook.stdout).toMatch(/created webhook /);
    expect(webhook.status).toBe(0);
  }, 60_000);

  it("lets any of the variables win over the file", async () => {
    const org = uniqueId("env");
    await createOrganization(firestore(), org);
    // The file names another project on the same emulators: the organization is not there.
    const { path } = stateFile({ projectId: "demo-other-project" });
    const emulators = {
      GOOGLE_CLOUD_PROJECT: process.env.GOOGLE_CLOUD_PROJECT,
      FIRESTORE_EMULATOR_HOST: process.env.FIRESTORE_EMULATOR_HOST,
      PUBSUB_EMULATOR_HOST: process.env.PUBSUB_EMULATOR_HOST,
    };
    const fromEnv = await admin(freshEnv(path, emulators), "org", "list");
    expect(fromEnv.status).toBe(0);
    expect(fromEnv.stderr).toBe(
      `admin: project ${emulators.GOOGLE_CLOUD_PROJECT}, Firestore emulator ${emulators.FIRESTORE_EMULATOR_HOST}, Pub/Sub emulator ${emulators.PUBSUB_EMULATOR_HOST} (from the environment); keys database: (default)\n`,
    );
    expect(fromEnv.stdout).toContain(`${org}\tactive`);
    // And the file alone would have meant the other project, where the organization is not.
    const fromFile = await admin(freshEnv(path), "org", "list");
    expect(fromFile.stderr).toContain("project demo-other-project,");
    expect(fromFile.stdout).not.toContain(org);

    // Any one variable is enough for the environment to win.
    expect(adminTarget({ LOCAL_STACK_STATE_FILE: path, GOOGLE_CLOUD_PROJECT: "prod-project" })).toEqual({
      env: {},
      line: "admin: project prod-project on Google Cloud",
      googleCloud: true,
      refused: false,
    });
    expect(
      adminTarget({ LOCAL_STACK_STATE_FILE: path, FIRESTORE_EMULATOR_HOST: "127.0.0.1:9", GOOGLE_CLOUD_PROJECT: "p" })
        .line,
    ).toBe("admin: project p, Firestore emulator 127.0.0.1:9, Pub/Sub on Google Cloud (from the environment)");
    expect(adminTarget({ LOCAL_STACK_STATE_FILE: path, PUBSUB_EMULATOR_HOST: "127.0.0.1:9" }).env).toEqual({});
  }, 60_000);

  it("refuses to act with no running stack and no project named, never falling through to Google Cloud", async () => {
    const pid = deadPid();
    const { path } = stateFile({ pid });
    expect(readLocalStackState(path)?.alive).toBe(false);
    const target = adminTarget(freshEnv(path));
    expect(target).toMatchObject({ env: {}, refused: true });
    expect(target.line).toBe(
      `admin: refusing to run: nothing named to act on (${path} names a local stack, pid ${pid}, that is no longer running; ignored). Start the local stack with npm start, or name a Google Cloud project with --project PROJECT or GOOGLE_CLOUD_PROJECT`,
    );
    // As a process, with a destructive command: the one line, exit 1, nothing else said or done.
    const run = await admin(freshEnv(path), "org", "disable", "acme");
    expect(run.stderr).toBe(`${target.line}\n`);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    // No state file at all.
    const none = await admin(
      freshEnv(join(mkdtempSync(join(tmpdir(), "no-stack-")), "absent.json")),
      "key",
      "list",
      "a",
    );
    expect(none.stderr).toMatch(/^admin: refusing to run: nothing named to act on \(no local stack running\)/);
    expect(none.status).toBe(1);
    // An emulator for one client only would leave the other on the default credentials' project.
    expect(adminTarget({ LOCAL_STACK_STATE_FILE: path, FIRESTORE_EMULATOR_HOST: "127.0.0.1:9" })).toMatchObject({
      refused: true,
      line: expect.stringMatching(/Pub\/Sub would be Google Cloud's, but no project is named; pass --project/),
    });
  }, 60_000);

  it("acts on Google Cloud only on a named project, asking before a destructive change there", async () => {
    const { path } = stateFile({ pid: deadPid() });
    // --project names it: the target is that project on Google Cloud, and a destructive command without a
    // terminal to ask is refused before any client is made (no credentials are needed to get this far).
    const named = await admin(freshEnv(path), "org", "disable", "acme", "--project", "demo-nowhere");
    expect(named.stderr).toBe(
      "admin: project demo-nowhere on Google Cloud; keys database: (default)\n" +
        "error: disable organization acme (every key of it refused) in Google Cloud project demo-nowhere needs a confirmation: run it in a terminal, or add --yes\n",
    );
    expect(named.status).toBe(1);
    const fromVariable = await admin(
      freshEnv(path, { GOOGLE_CLOUD_PROJECT: "demo-nowhere" }),
      "key",
      "disable",
      "usk_A",
    );
    expect(fromVariable.stderr).toMatch(
      /error: disable key usk_A in Google Cloud project demo-nowhere needs a confirmation/,
    );
    expect(fromVariable.status).toBe(1);
    expect(adminTarget({ LOCAL_STACK_STATE_FILE: path, GOOGLE_CLOUD_PROJECT: "p" })).toMatchObject({
      googleCloud: true,
      refused: false,
    });

    // On the emulators nothing is asked, and --yes is taken out of the command's arguments.
    const org = uniqueId("guarded");
    await createOrganization(firestore(), org);
    const emulators = freshEnv(path, {
      GOOGLE_CLOUD_PROJECT: process.env.GOOGLE_CLOUD_PROJECT,
      FIRESTORE_EMULATOR_HOST: process.env.FIRESTORE_EMULATOR_HOST,
      PUBSUB_EMULATOR_HOST: process.env.PUBSUB_EMULATOR_HOST,
    });
    const local = await admin(emulators, "org", "disable", org);
    expect(local.stdout).toContain(org);
    expect(local.status, local.stderr).toBe(0);
    const again = await admin(emulators, "org", "enable", org, "--yes");
    expect(again.status, again.stderr).toBe(0);
  }, 60_000);

  it("keeps a running stack's file from a second stack and removes only its own", () => {
    const { path, state } = stateFile();
    expect(writeLocalStackState({ ...state, pid: process.ppid }, path)).toEqual({
      written: false,
      runningPid: process.pid,
    });
    removeLocalStackState(process.ppid, path);
    expect(existsSync(path)).toBe(true);
    removeLocalStackState(process.pid, path);
    expect(existsSync(path)).toBe(false);
    // A dead stack's file is replaced.
    const stale = stateFile({ pid: deadPid() });
    expect(writeLocalStackState({ ...state, pid: process.ppid }, stale.path)).toEqual({ written: true });
    expect(readLocalStackState(stale.path)).toEqual({ state: { ...state, pid: process.ppid }, alive: true });
  });
});
