import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "./services.ts";

/**
 * On a fresh clone `npm start` first installs, on the system's Node.js, then starts the stack. The shell
 * running the script remembers where it found `node` for the install; without `hash -r` it starts the stack
 * on that same system Node.js instead of the pinned one the install just brought (later runs were fine).
 * Here the root's `start` line runs as written, in a project whose install step only brings a `node` that
 * says it is the pinned one.
 */
const scratch = mkdtempSync(join(tmpdir(), "first-start-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the first npm start of a fresh clone", () => {
  it("starts the stack on the Node.js the install brought, not on the one that installed", () => {
    const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    mkdirSync(join(scratch, "scripts"));
    writeFileSync(join(scratch, "package.json"), JSON.stringify({ name: "fresh-clone", scripts }));
    writeFileSync(
      join(scratch, "scripts", "ensure-deps.mjs"),
      `import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
mkdirSync("node_modules/.bin", { recursive: true });
writeFileSync("node_modules/.bin/node", "#!/bin/sh\\necho pinned node $*\\n");
chmodSync("node_modules/.bin/node", 0o755);
`,
    );
    // As on a machine with nothing installed: no project's node_modules/.bin on the way in.
    const path = (process.env.PATH ?? "")
      .split(delimiter)
      .filter((dir) => !dir.includes("node_modules"))
      .join(delimiter);
    const started = spawnSync("npm", ["start", "--silent"], {
      cwd: scratch,
      env: { ...process.env, PATH: path, npm_config_update_notifier: "false" },
      encoding: "utf8",
    });
    expect(started.status, started.stderr).toBe(0);
    expect(started.stdout.trim()).toBe("pinned node --import tsx scripts/local-stack/main.ts");
  });
});
