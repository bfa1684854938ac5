// Installs the dependencies when they are missing or older than the lockfile, so that `npm start` and
// `npm test` work on a fresh clone with no prior step. Plain Node: it runs before anything is installed.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync, utimesSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const lockfile = join(root, "package-lock.json");
const installed = join(root, "node_modules", ".package-lock.json");

const stale =
  !existsSync(installed) ||
  (existsSync(lockfile) && statSync(lockfile).mtimeMs > statSync(installed).mtimeMs) ||
  statSync(join(root, "package.json")).mtimeMs > statSync(installed).mtimeMs;

if (stale) {
  // `npm install` honours the lockfile's versions; `npm ci` is stricter than needed and refuses lockfiles
  // written on a machine that leaves other platforms' optional packages out.
  const command = "install";
  console.error(`Installing dependencies (npm ${command})...`);
  // On a fresh clone this runs on the system's Node.js; the rest of every npm script runs on the pinned
  // `node` dev dependency this install brings. npm then warns about the engine of the root package and of
  // every dependency that wants a newer Node.js (about a hundred lines, five per package): the one line
  // below says it instead. Only those EBADENGINE lines are dropped; every other warning and error passes
  // through, which `--loglevel=error` (it hides all warnings) would not do. When the system Node.js is the
  // one the project wants, an engine warning is real and is shown.
  const wanted = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).engines?.node ?? "";
  const otherNode = !wanted.startsWith(`${process.versions.node.split(".")[0]}.`);
  if (otherNode) {
    console.error(`(installing with the system Node.js ${process.version}; npm scripts then run on Node.js ${wanted})`);
  }
  const status = await new Promise((resolve) => {
    const npm = spawn("npm", [command, "--no-audit", "--no-fund"], {
      cwd: root,
      stdio: ["inherit", "inherit", otherNode ? "pipe" : "inherit"],
    });
    npm.once("error", (error) => {
      console.error(`cannot run npm: ${error.message}`);
      resolve(1);
    });
    if (npm.stderr) {
      // npm writes its log to stderr; colour codes are stripped before matching, in case colour is forced.
      const engineWarning = /^npm warn EBADENGINE\b/i;
      // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour sequences start with ESC.
      const colour = /\u001b\[[0-9;]*m/g;
      createInterface({ input: npm.stderr, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
        if (!engineWarning.test(line.replace(colour, ""))) process.stderr.write(`${line}\n`);
      });
    }
    npm.once("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
  if (status !== 0) {
    console.error(`npm ${command} failed with exit code ${status}`);
    process.exit(status);
  }
  // npm leaves the marker untouched when nothing changed; mark this install as current.
  if (existsSync(installed)) utimesSync(installed, new Date(), new Date());
}
