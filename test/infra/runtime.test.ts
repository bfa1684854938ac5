import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeMajor } from "../../scripts/lib/node-version.ts";
import { GATEWAY_NODE_FLAGS, REPO_ROOT } from "../../scripts/lib/services.ts";

/** One Node.js line everywhere: production (worker runtime, gateway image), `engines`, and the local toolchain. */
const read = (path: string) => readFileSync(join(REPO_ROOT, path), "utf8");
const major = nodeMajor();

describe("the Node.js runtime", () => {
  it("is an LTS line named the same in engines, the worker's Terraform runtime and the gateway's base image", () => {
    expect(major % 2).toBe(0);
    const runtimes = [...read("infra/modules/worker/main.tf").matchAll(/runtime\s*=\s*"nodejs(\d+)"/g)];
    expect(runtimes.map((found) => Number(found[1]))).toEqual([major]);
    const bases = [...read("services/gateway/Dockerfile").matchAll(/^FROM (\S+)/gm)].map((found) => found[1]);
    expect(bases.length).toBeGreaterThan(0);
    for (const base of bases)
      expect(base).toMatch(new RegExp(`^node:${major}\\.\\d+\\.\\d+-[a-z]+-slim@sha256:[0-9a-f]{64}$`));
  });

  it("is the pinned `node` devDependency locally, which npm scripts (this test run among them) run on", () => {
    const manifest = JSON.parse(read("package.json")) as { devDependencies: Record<string, string> };
    expect(manifest.devDependencies.node).toMatch(new RegExp(`^${major}\\.\\d+\\.\\d+$`));
    expect(process.versions.node).toBe(manifest.devDependencies.node);
  });

  it("builds the same release the gateway image runs", () => {
    const manifest = JSON.parse(read("package.json")) as { devDependencies: Record<string, string> };
    const [base] = [...read("services/gateway/Dockerfile").matchAll(/^FROM node:(\d+\.\d+\.\d+)-/gm)];
    expect(base?.[1]).toBe(manifest.devDependencies.node);
  });

  it("runs the gateway with the heap flags the local stack and the benchmark give it", () => {
    const [cmd] = [...read("services/gateway/Dockerfile").matchAll(/^CMD (\[.*\])$/gm)];
    const args = JSON.parse(cmd?.[1] ?? "[]") as string[];
    expect(args.filter((arg) => GATEWAY_NODE_FLAGS.includes(arg))).toEqual(GATEWAY_NODE_FLAGS);
    const [options] = [...read("infra/modules/gateway/main.tf").matchAll(/NODE_OPTIONS\s*=\s*"([^"]*)"/g)];
    for (const flag of options?.[1]?.split(" ") ?? ["missing"]) expect(GATEWAY_NODE_FLAGS).toContain(flag);
  });
});
