// Installs the dependencies when they are missing or older than the lockfile, so that `npm start` and
// `npm test` work on a fresh clone with no prior step. Plain Node: it runs before anything is installed.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync, utimesSync } from "node:fs";
import { dirname, join } from "node:path";
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
  // `node` dev dependency this install brings, so npm's engine warning for this one install is expected.
  const wanted = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).engines?.node ?? "";
  if (!wanted.startsWith(`${process.versions.node.split(".")[0]}.`)) {
    console.error(`(installing with the system Node.js ${process.version}; npm scripts then run on Node.js ${wanted})`);
  }
  const result = spawnSync("npm", [command, "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`npm ${command} failed with exit code ${result.status}`);
    process.exit(result.status ?? 1);
  }
  // npm leaves the marker untouched when nothing changed; mark this install as current.
  if (existsSync(installed)) utimesSync(installed, new Date(), new Date());
}
