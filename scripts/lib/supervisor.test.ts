import { describe, expect, it } from "vitest";
import { spawnGroup, waitFor } from "./processes.ts";
import { supervise } from "./supervisor.ts";

/** A real Node process that lives `lifeMs` (forever when undefined), like a service that may crash. */
const nodeProcess = async (lifeMs?: number) =>
  spawnGroup(process.execPath, [
    "-e",
    lifeMs === undefined ? "setInterval(() => {}, 1000)" : `setTimeout(() => process.exit(3), ${lifeMs})`,
  ]);

describe("supervise", () => {
  it("restarts a process killed with SIGKILL and says so", async () => {
    const lines: string[] = [];
    const gaveUp: string[] = [];
    const supervised = supervise("test service", await nodeProcess(), () => nodeProcess(), {
      log: (line) => lines.push(line),
      onGiveUp: (reason) => gaveUp.push(reason),
      restartDelayMs: 50,
    });
    try {
      const first = supervised.current().child.pid as number;
      process.kill(first, "SIGKILL");
      await waitFor(
        async () => supervised.current().child.pid !== first && supervised.current().child.exitCode === null,
        10_000,
        () => `not restarted: ${lines.join("\n")}`,
      );
      expect(lines[0]).toMatch(/^the test service stopped \(killed by SIGKILL\); restarting it \(restart 1 of 5/);
      expect(lines[1]).toMatch(/^the test service is running again \(pid \d+\)$/);
      expect(supervised.restarts()).toBe(1);
      expect(gaveUp).toEqual([]);
    } finally {
      await supervised.stop();
    }
    expect(supervised.current().child.signalCode ?? supervised.current().child.exitCode).not.toBeNull();
  });

  it("gives up, loudly, when the process keeps dying", async () => {
    const lines: string[] = [];
    let gaveUp = "";
    const supervised = supervise("crashing service", await nodeProcess(20), () => nodeProcess(20), {
      log: (line) => lines.push(line),
      onGiveUp: (reason) => {
        gaveUp = reason;
      },
      maxRestarts: 3,
      windowMs: 60_000,
      restartDelayMs: 10,
    });
    try {
      await waitFor(
        async () => gaveUp !== "",
        15_000,
        () => `never gave up: ${lines.join("\n")}`,
      );
      expect(gaveUp).toBe("the crashing service died 4 times within 60 s (last: exit code 3); giving up");
      expect(lines.filter((line) => line.includes("restarting it"))).toHaveLength(3);
      expect(supervised.restarts()).toBe(3);
    } finally {
      await supervised.stop();
    }
  });
});
