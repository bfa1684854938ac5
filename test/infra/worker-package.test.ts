import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/lib/services.ts";
import { lockedPackages, workerLockfile, workerManifest } from "../../scripts/lib/worker-package.ts";

/** The worker's package (npm run package:worker) installs from its own lockfile, cut from the workspace's. */
describe("the worker's package", () => {
  it("lists the packages outside the bundle at the workspace's versions, on the project's Node.js line", () => {
    const manifest = workerManifest();
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      "@google-cloud/firestore",
      "@google-cloud/functions-framework",
      "@pydantic/genai-prices",
    ]);
    for (const version of Object.values(manifest.dependencies)) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.engines.node).toBe(JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).engines.node);
  });

  it("ships a lockfile whose every package is one the workspace's lockfile holds", { timeout: 60_000 }, () => {
    const manifest = workerManifest();
    const lock = workerLockfile(manifest);
    expect(lock.packages[""]).toMatchObject({ dependencies: manifest.dependencies });
    const root = lockedPackages(JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")));
    const locked = [...lockedPackages(lock)];
    expect(locked.length).toBeGreaterThan(20);
    expect(locked.filter((pkg) => !root.has(pkg))).toEqual([]);
    for (const [name, version] of Object.entries(manifest.dependencies)) expect(locked).toContain(`${name}@${version}`);
  });
});
