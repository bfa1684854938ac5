import { existsSync, mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { adminTarget, readLocalStackState } from "../../scripts/lib/local-stack-state.ts";
import { freePort, portIsFree, waitFor } from "../../scripts/lib/processes.ts";
import { adminProcess, freshShellEnv } from "../setup/admin-process.ts";
import { CookieJar, signInThrough } from "../setup/browser-sign-in.ts";
import { descendants, launch, running } from "../setup/launcher.ts";

// The stacks started here record themselves in a file of their own, never in the checkout's
// .local-stack.json (which a stack the developer runs may hold); launch() passes this on.
const statePath = join(mkdtempSync(join(tmpdir(), "local-stack-e2e-")), "state.json");
process.env.LOCAL_STACK_STATE_FILE = statePath;

const printed = (lines: string[], label: string) =>
  lines
    .find((line) => line.startsWith(label))
    ?.split(/\s+/)
    .pop() as string;

const costs = (port: number, key: string, query: string) =>
  fetch(`http://127.0.0.1:${port}/usage/costs?${query}`, { headers: { "x-api-key": key } });

/** The admin command line in a terminal with none of the variables set. */
const adminInFreshShell = (...args: string[]) => adminProcess(freshShellEnv(), ...args);

const post = (port: number, key: string, body: string) =>
  fetch(`http://127.0.0.1:${port}/usage/transactions`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body,
  });

async function expectAllGone(pids: number[], ports: number[]) {
  await waitFor(
    async () => !pids.some(running),
    15_000,
    () => `still running: ${pids.filter(running).join(", ")}`,
  );
  for (const port of ports) {
    await waitFor(
      () => portIsFree(port),
      10_000,
      () => `port ${port} is still held`,
    );
  }
}

describe("npm start (the local stack launcher)", () => {
  it("serves the printed curl; killed with SIGKILL it leaves no process and no port; it starts again on the same ports", async () => {
    const port = await freePort();
    const workerPort = await freePort();

    // With its own emulators; the launcher alone is killed outright and its orphan guard stops the rest.
    const first = launch({ port, workerPort, ownEmulators: true });
    try {
      await first.ready();
      const hosts = first.lines.find((line) => line.startsWith("Pub/Sub emulator:")) ?? "";
      const emulatorPorts = [...hosts.matchAll(/127\.0\.0\.1:(\d+)/g)].map((match) => Number(match[1]));
      expect(emulatorPorts).toHaveLength(2);
      expect(first.lines).toContain(`Dashboard:        http://127.0.0.1:${port}/dashboard`);
      const ingestKey = printed(first.lines, "Ingest key:");
      const readKey = printed(first.lines, "Read key:");
      expect(readKey).toMatch(/^\S{20,}$/);
      expect(readKey).not.toBe(ingestKey);
      // The organization declares the feature dimension: the read key groups by it; the ingest key cannot read.
      // (`customer` is an alias of the admin command line only; the HTTP API names the field itself.)
      const byFeature = "group_by=billable_customer_id,context.feature";
      expect((await costs(port, readKey, byFeature)).status).toBe(200);
      expect((await costs(port, ingestKey, byFeature)).status).toBe(401);

      const curl = first.lines.find((line) => line.startsWith("  -d '"))?.slice("  -d '".length, -1) as string;
      expect(JSON.parse(curl).context).toEqual({ billable_customer_id: "customer-1", feature: "chat" });
      expect((await post(port, ingestKey, curl)).status).toBe(202);
      // The printed read-back, once the worker has stored the transaction.
      const readBack = first.lines
        .find((line) => line.startsWith("curl -s '"))
        ?.slice("curl -s '".length, -3) as string;
      expect(readBack).toBe(`http://127.0.0.1:${port}/usage/costs?${byFeature}&context.feature=chat`);
      let groups: Array<{ key: Record<string, string | null>; transactions: number }> = [];
      let lastAnswer = "";
      await waitFor(
        async () => {
          const answer = await fetch(readBack, { headers: { "x-api-key": readKey } });
          lastAnswer = `${answer.status} ${await answer.clone().text()}`;
          groups = answer.status === 200 ? (await answer.json()).groups : [];
          return groups.length > 0;
        },
        30_000,
        () => `the printed read-back never showed the printed example; last answer: ${lastAnswer}`,
      );
      expect(groups).toEqual([
        expect.objectContaining({
          key: { billable_customer_id: "customer-1", "context.feature": "chat" },
          transactions: 1,
        }),
      ]);
      const otherFeature = await costs(port, readKey, `${byFeature}&context.feature=search`);
      expect((await otherFeature.json()).groups).toEqual([]);

      // A person signs in at the printed address, as the printed account, through the development provider.
      expect(first.lines).toContain(`Console: http://127.0.0.1:${port}/console`);
      expect(first.lines).toContain("Sign in as: dev@example.com");
      const password = printed(first.lines, "Password:");
      const jar = new CookieJar();
      const signedIn = await signInThrough(jar, `http://127.0.0.1:${port}`, "dev@example.com", password);
      expect(signedIn.url).toBe(`http://127.0.0.1:${port}/console`);
      const me = await jar.fetch(`http://127.0.0.1:${port}/v1/me`);
      expect(me.status).toBe(200);
      expect(await me.json()).toEqual({
        email: "dev@example.com",
        organizations: [{ id: "dev", name: "Development", role: "owner" }],
      });

      // The stack records itself; the admin command line finds it with no variable set.
      expect(readLocalStackState(statePath)).toMatchObject({
        alive: true,
        state: { projectId: "demo-launcher", pid: first.launcher.child.pid, gatewayUrl: `http://127.0.0.1:${port}` },
      });
      expect(first.lines).toContain("npm run admin -- org list");
      const listed = await adminInFreshShell("org", "list");
      expect(listed.status).toBe(0);
      expect(listed.stderr).toMatch(
        /^admin: project demo-launcher, Firestore emulator 127\.0\.0\.1:\d+, Pub\/Sub emulator 127\.0\.0\.1:\d+ \(the local stack\); keys database: \(default\)\n$/,
      );
      expect(listed.stdout).toMatch(/^dev\tactive\t\S+\tfeature\tDevelopment$/m);

      const started = descendants(first.launcher.child.pid as number);
      // Gateway, worker, both emulators (each a wrapper and a Java process) and the guard.
      expect(started.length).toBeGreaterThanOrEqual(5);
      process.kill(first.launcher.child.pid as number, "SIGKILL");
      await expectAllGone(started, [port, workerPort, ...emulatorPorts]);
      // Killed outright, it leaves its file behind: the admin command line sees its pid is gone.
      expect(readLocalStackState(statePath)?.alive).toBe(false);
      expect(adminTarget({ LOCAL_STACK_STATE_FILE: statePath }).line).toContain("that is no longer running; ignored");
    } finally {
      await first.launcher.stop();
    }

    // `npm start` on the same ports and the test run's emulators; its npm process is killed outright and
    // the launcher, seeing its parent gone, stops what it started.
    const second = launch({ port, workerPort, ownEmulators: false, viaNpm: true });
    try {
      await second.ready();
      const curl = second.lines.find((line) => line.startsWith("  -d '"))?.slice("  -d '".length, -1) as string;
      expect((await post(port, printed(second.lines, "Ingest key:"), curl)).status).toBe(202);
      // The next stack replaces the stale file.
      expect(readLocalStackState(statePath)?.alive).toBe(true);
      const started = descendants(second.launcher.child.pid as number);
      process.kill(second.launcher.child.pid as number, "SIGKILL");
      await expectAllGone(started, [port, workerPort]);
    } finally {
      await second.launcher.stop();
    }

    // And on SIGTERM it stops in order and exits 0.
    const third = launch({ port, workerPort, ownEmulators: false });
    try {
      await third.ready();
      // Seeded again on the emulators the second stack left: still the owner, with this run's password.
      const jar = new CookieJar();
      await signInThrough(jar, `http://127.0.0.1:${port}`, "dev@example.com", printed(third.lines, "Password:"));
      const me = await jar.fetch(`http://127.0.0.1:${port}/v1/me`);
      expect((await me.json()).organizations).toEqual([{ id: "dev", name: "Development", role: "owner" }]);
      expect(readLocalStackState(statePath)?.state.pid).toBe(third.launcher.child.pid);
      const started = descendants(third.launcher.child.pid as number);
      process.kill(third.launcher.child.pid as number, "SIGTERM");
      await new Promise<void>((resolve) => third.launcher.child.once("exit", () => resolve()));
      expect(third.launcher.child.exitCode).toBe(0);
      await expectAllGone(started, [port, workerPort]);
      // Stopped, it removes its file.
      expect(existsSync(statePath)).toBe(false);
    } finally {
      await third.launcher.stop();
    }
  }, 300_000);

  it("refuses a port already taken, naming it", async () => {
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, "127.0.0.1", () => resolve()));
    try {
      const { launcher, lines } = launch({ port, ownEmulators: true });
      await new Promise<void>((resolve) => launcher.child.once("exit", () => resolve()));
      expect(launcher.child.exitCode).not.toBe(0);
      expect(lines.join("\n")).toContain(`port ${port} is already in use`);
    } finally {
      blocker.close();
    }
  }, 60_000);
});
