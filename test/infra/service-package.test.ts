import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  allowScriptsFor,
  lockedPackages,
  serviceLockfile,
  serviceManifest,
} from "../../scripts/lib/service-package.ts";
import { REPO_ROOT } from "../../scripts/lib/services.ts";

/** Each service's package (npm run package:gateway / package:worker) installs from its own lockfile. */
const rootLock = () => lockedPackages(JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")));
const engines = () => JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).engines.node;

describe.each([
  ["gateway", ["@google-cloud/firestore", "@google-cloud/pubsub", "express", "google-gax"]],
  [
    "worker",
    [
      // The reconciliation reads Google's billing export with the BigQuery client.
      "@google-cloud/bigquery",
      "@google-cloud/firestore",
      "@google-cloud/functions-framework",
      // The webhook dispatch queues deliveries; the records feed publishes every stored record.
      "@google-cloud/pubsub",
      "@pydantic/genai-prices",
      "google-auth-library",
      "google-gax",
    ],
  ],
] as const)("the %s's package", (service, outside) => {
  it("lists the packages outside the bundle at the workspace's exact versions, on the project's Node.js line", () => {
    const manifest = serviceManifest(service);
    expect(Object.keys(manifest.dependencies).sort()).toEqual(outside);
    for (const version of Object.values(manifest.dependencies)) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.engines.node).toBe(engines());
  });

  it("ships a lockfile whose every package is one the workspace's lockfile holds", { timeout: 60_000 }, () => {
    const manifest = serviceManifest(service);
    const lock = serviceLockfile(manifest);
    expect(lock.packages[""]).toMatchObject({ dependencies: manifest.dependencies });
    const root = rootLock();
    const locked = [...lockedPackages(lock)];
    expect(locked.length).toBeGreaterThan(20);
    expect(locked.filter((pkg) => !root.has(pkg))).toEqual([]);
    for (const [name, version] of Object.entries(manifest.dependencies)) expect(locked).toContain(`${name}@${version}`);
    // protobufjs (under the Google Cloud clients) is the one package with an install script; it stays denied.
    expect(allowScriptsFor(lock)).toEqual({ protobufjs: false });
  });
});
