import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isExternal } from "./bundle.ts";
import { nodeMajor } from "./node-version.ts";
import { REPO_ROOT } from "./services.ts";

interface Lockfile {
  packages: Record<string, { version?: string; link?: boolean; hasInstallScript?: boolean }>;
}

export const SERVICES = {
  gateway: { dir: "services/gateway", name: "usage-gateway", main: "server.js" },
  worker: { dir: "services/cost-worker", name: "usage-cost-worker", main: "index.js" },
} as const;
export type ServiceName = keyof typeof SERVICES;

/**
 * A service's package.json as its deployment installs it (the gateway image, Cloud Functions for the
 * worker): only the packages left outside the bundle, at the exact versions the workspace pins.
 */
export function serviceManifest(service: ServiceName) {
  const { dir, name, main } = SERVICES[service];
  const source = JSON.parse(readFileSync(join(REPO_ROOT, dir, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  const dependencies = Object.fromEntries(Object.entries(source.dependencies).filter(([pkg]) => isExternal(pkg)));
  return { name, private: true, type: "module", main, engines: { node: `${nodeMajor()}.x` }, dependencies };
}
export type ServiceManifest = ReturnType<typeof serviceManifest>;

/**
 * The install-script decisions (package.json `allowScripts`) for the packages of `lock` that have install
 * scripts: the workspace's decision for each, or a denial where it has none, so `npm ci` on Cloud Build
 * runs no package's code either.
 */
export function allowScriptsFor(lock: Lockfile): Record<string, boolean> {
  const root = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
    allowScripts?: Record<string, boolean>;
  };
  const names = Object.entries(lock.packages)
    .filter(([path, entry]) => entry.hasInstallScript && path.includes("node_modules/"))
    .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
  return Object.fromEntries([...new Set(names)].sort().map((name) => [name, root.allowScripts?.[name] ?? false]));
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
 * A service's package-lock.json, cut from the workspace's: npm starts from a copy of the root lockfile and
 * keeps every version it locks, so the deployment installs (`npm ci`) exactly the packages the tests ran on.
 * A package the root lockfile does not hold stops the packaging instead of being resolved. (The workspace's
 * own lockfile cannot be used with `npm ci` where it was written without other platforms' optional
 * binaries; the cut one holds only the services' runtime packages, which have none.)
 */
export function serviceLockfile(manifest: ServiceManifest): Lockfile {
  const dir = mkdtempSync(join(tmpdir(), "service-lock-"));
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
