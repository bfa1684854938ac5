import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort, portIsFree, spawnGroup, waitFor } from "../../scripts/lib/processes.ts";
import { REPO_ROOT } from "../../scripts/lib/services.ts";

/** `npm start`'s program, started as a user would, on free ports and its own emulators. */
function launch(port: number) {
  const lines: string[] = [];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    STACK_QUIET: "1",
    GOOGLE_CLOUD_PROJECT: "demo-launcher",
  };
  delete env.PUBSUB_EMULATOR_HOST;
  delete env.FIRESTORE_EMULATOR_HOST;
  const launcher = spawnGroup(process.execPath, ["--import", "tsx", "scripts/local-stack/main.ts"], {
    cwd: REPO_ROOT,
    env,
    onLine: (line) => lines.push(line),
  });
  return { launcher, lines };
}

describe("npm start (the local stack launcher)", () => {
  it("starts everything, serves the printed curl, and stops without leaving a process behind", async () => {
    const port = await freePort();
    const { launcher, lines } = launch(port);
    try {
      await waitFor(
        async () => lines.some((line) => line.includes("ready")),
        120_000,
        () => `the launcher never said ready:\n${lines.join("\n")}`,
        () => launcher.child.exitCode !== null,
      );
      const key = lines
        .find((line) => line.startsWith("API key:"))
        ?.split(/\s+/)
        .pop() as string;
      const hosts = lines.find((line) => line.startsWith("Pub/Sub emulator:")) ?? "";
      const emulatorPorts = [...hosts.matchAll(/127\.0\.0\.1:(\d+)/g)].map((match) => Number(match[1]));
      expect(emulatorPorts).toHaveLength(2);
      const curl = lines.find((line) => line.startsWith("  -d '"))?.slice("  -d '".length, -1) as string;

      const response = await fetch(`http://127.0.0.1:${port}/usage/transactions`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: curl,
      });
      expect(response.status).toBe(202);

      process.kill(-(launcher.child.pid as number), "SIGTERM");
      await new Promise<void>((resolve) => launcher.child.once("exit", () => resolve()));
      expect(launcher.child.exitCode).toBe(0);
      // Nothing it started still holds a port.
      for (const held of [port, ...emulatorPorts]) {
        await waitFor(
          () => portIsFree(held),
          10_000,
          () => `port ${held} is still held after stopping`,
        );
      }
    } finally {
      await launcher.stop();
    }
  }, 180_000);

  it("refuses a port already taken, naming it", async () => {
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, "127.0.0.1", () => resolve()));
    try {
      const { launcher, lines } = launch(port);
      await new Promise<void>((resolve) => launcher.child.once("exit", () => resolve()));
      expect(launcher.child.exitCode).not.toBe(0);
      expect(lines.join("\n")).toContain(`port ${port} is already in use`);
    } finally {
      blocker.close();
    }
  }, 60_000);
});
