import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isExternal } from "./bundle.ts";
import { nodeMajor } from "./node-version.ts";
import { REPO_ROOT } from "./services.ts";

interface Lockfile {
  packages: Record<string, { version?: string; link?: boolean }>;
}

/**
 * The worker's package.json as Cloud Functions installs it: only the packages left outside the bundle,
 * at the exact versions the workspace pins.
 */
export function workerManifest() {
  const source = JSON.parse(readFileSync(join(REPO_ROOT, "services/cost-worker/package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  const dependencies = Object.fromEntries(Object.entries(source.dependencies).filter(([name]) => isExternal(name)));
  return {
    name: "usage-cost-worker",
    private: true,
    type: "module",
    main: "index.js",
    engines: { node: `${nodeMajor()}.x` },
    dependencies,
  };
}

/** Every `name@version` a lockfile installs (workspace links left out). */
export function lockedPackages(lock: Lockfile): Set<string> {
  const found = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    const at = path.lastIndexOf("node_modules/");
    if (at < 0 || entry.link || !entry.version) continue;
    found.add(`${path.slice(at + "node_modules/".length)}@${entry.version}`);
  }
  return found;
}

/**
 * The worker's package-lock.json, cut from the workspace's: npm starts from a copy of the root lockfile and
 * keeps every version it locks, so the worker installs (`npm ci` on Cloud Build) exactly the packages the
 * tests ran on. A package the root lockfile does not hold stops the packaging instead of being resolved.
 */
export function workerLockfile(manifest: ReturnType<typeof workerManifest>): Lockfile {
  const dir = mkdtempSync(join(tmpdir(), "worker-lock-"));
  try {
    writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    copyFileSync(join(REPO_ROOT, "package-lock.json"), join(dir, "package-lock.json"));
    const npm = spawnSync(
      "npm",
      ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline"],
      { cwd: dir, encoding: "utf8" },
    );
    if (npm.status !== 0) throw new Error(`npm install --package-lock-only failed:\n${npm.stderr}`);
    const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8")) as Lockfile;
    const root = lockedPackages(JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")) as Lockfile);
    const foreign = [...lockedPackages(lock)].filter((pkg) => !root.has(pkg));
    if (foreign.length > 0) throw new Error(`not in the root package-lock.json: ${foreign.join(", ")}`);
    return lock;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
