import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./services.ts";

/**
 * The Node.js major the project runs on, everywhere: the root package.json's `engines.node` (`24.x`).
 * The worker's Terraform runtime, the gateway's base image and the pinned `node` devDependency name the
 * same major (test/infra/runtime.test.ts holds them together); the bundles target it.
 */
export function nodeMajor(): number {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { engines?: { node?: string } };
  const match = /^(\d+)\.x$/.exec(manifest.engines?.node ?? "");
  if (!match) throw new Error('package.json engines.node must name one major, as "24.x"');
  return Number(match[1]);
}
