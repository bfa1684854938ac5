import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort, portIsFree, waitFor } from "../../scripts/lib/processes.ts";
import { descendants, launch, running } from "../setup/launcher.ts";

const printed = (lines: string[], label: string) =>
  lines
    .find((line) => line.startsWith(label))
    ?.split(/\s+/)
    .pop() as string;

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
      const curl = first.lines.find((line) => line.startsWith("  -d '"))?.slice("  -d '".length, -1) as string;
      expect((await post(port, printed(first.lines, "API key:"), curl)).status).toBe(202);
      const started = descendants(first.launcher.child.pid as number);
      // Gateway, worker, both emulators (each a wrapper and a Java process) and the guard.
      expect(started.length).toBeGreaterThanOrEqual(5);
      process.kill(first.launcher.child.pid as number, "SIGKILL");
      await expectAllGone(started, [port, workerPort, ...emulatorPorts]);
    } finally {
      await first.launcher.stop();
    }

    // `npm start` on the same ports and the test run's emulators; its npm process is killed outright and
    // the launcher, seeing its parent gone, stops what it started.
    const second = launch({ port, workerPort, ownEmulators: false, viaNpm: true });
    try {
      await second.ready();
      const curl = second.lines.find((line) => line.startsWith("  -d '"))?.slice("  -d '".length, -1) as string;
      expect((await post(port, printed(second.lines, "API key:"), curl)).status).toBe(202);
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
      const started = descendants(third.launcher.child.pid as number);
      process.kill(third.launcher.child.pid as number, "SIGTERM");
      await new Promise<void>((resolve) => third.launcher.child.once("exit", () => resolve()));
      expect(third.launcher.child.exitCode).toBe(0);
      await expectAllGone(started, [port, workerPort]);
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
