import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { writeStdoutLine } from "./stdout-lines.ts";

const MODULE = fileURLToPath(new URL("./stdout-lines.ts", import.meta.url));

/** Runs a script in a fresh Node that has `writeStdoutLine` in scope, and returns what it printed. */
function run(script: string) {
  const result = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `import { writeStdoutLine } from ${JSON.stringify(MODULE)};\n${script}`,
    ],
    { encoding: "utf8" },
  );
  return { stdout: result.stdout, status: result.status };
}

describe("log lines on standard output", () => {
  it("leave in one write per turn of the event loop, in order", async () => {
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      writeStdoutLine("one\n");
      writeStdoutLine("two\n");
      writeStdoutLine("three\n");
      expect(write).not.toHaveBeenCalled();
      await new Promise((resolve) => setImmediate(resolve));
      expect(write.mock.calls).toEqual([["one\ntwo\nthree\n"]]);
    } finally {
      write.mockRestore();
    }
  });

  it("are all out when the process exits at once, by process.exit or by an uncaught exception", () => {
    expect(run('writeStdoutLine("before exit\\n"); process.exit(3);')).toEqual({ stdout: "before exit\n", status: 3 });
    const crashed = run('writeStdoutLine("before the crash\\n"); throw new Error("boom");');
    expect(crashed.stdout).toBe("before the crash\n");
    expect(crashed.status).toBe(1);
  });

  it("are written at once past 64 KiB, not held for the turn", () => {
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      writeStdoutLine(`${"x".repeat(70 * 1024)}\n`);
      expect(write).toHaveBeenCalledTimes(1);
    } finally {
      write.mockRestore();
    }
  });
});
