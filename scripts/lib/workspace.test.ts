import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./services.ts";

type Manifest = {
  name: string;
  license?: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};
const manifest = (dir: string) => JSON.parse(readFileSync(join(REPO_ROOT, dir, "package.json"), "utf8")) as Manifest;
/** Every workspace package's folder, as the root's `workspaces` globs (`dir` or `dir/*`) name them. */
const WORKSPACES = (manifest(".").workspaces ?? []).flatMap((glob) =>
  glob.endsWith("/*")
    ? readdirSync(join(REPO_ROOT, glob.slice(0, -2)))
        .map((name) => `${glob.slice(0, -2)}/${name}`)
        .filter((dir) => existsSync(join(REPO_ROOT, dir, "package.json")))
    : [glob],
);

describe("the workspace", () => {
  it("licenses every package under Apache-2.0, the text at the root", () => {
    expect(WORKSPACES.length).toBeGreaterThanOrEqual(5);
    expect(readFileSync(join(REPO_ROOT, "LICENSE"), "utf8")).toContain(
      "Apache License\n                           Version 2.0",
    );
    for (const dir of [".", ...WORKSPACES]) expect(manifest(dir).license, dir).toBe("Apache-2.0");
  });

  it("pins the validation library once, at the root, so one copy is ever installed", () => {
    expect(manifest(".").dependencies?.valibot).toMatch(/^\d+\.\d+\.\d+$/);
    for (const dir of WORKSPACES) {
      const { dependencies = {}, devDependencies = {} } = manifest(dir);
      expect({ ...dependencies, ...devDependencies }, dir).not.toHaveProperty("valibot");
    }
  });

  it("declares every package at one version wherever it is declared", () => {
    const versions = new Map<string, Set<string>>();
    for (const dir of [".", ...WORKSPACES]) {
      const { dependencies = {}, devDependencies = {} } = manifest(dir);
      for (const [name, version] of Object.entries({ ...dependencies, ...devDependencies })) {
        versions.set(name, (versions.get(name) ?? new Set()).add(version));
      }
    }
    const split = [...versions].filter(([, found]) => found.size > 1).map(([name, found]) => `${name}: ${[...found]}`);
    expect(split).toEqual([]);
  });

  it("names each test file once, so a failing file's name says which one it is", () => {
    const names = new Map<string, string[]>();
    const visit = (dir: string) => {
      for (const entry of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory() && entry.name !== "node_modules" && entry.name !== "dist") visit(path);
        else if (entry.name.endsWith(".test.ts"))
          names.set(basename(path), [...(names.get(basename(path)) ?? []), path]);
      }
    };
    for (const dir of ["shared", "services", "clients", "scripts", "test"]) visit(dir);
    expect(names.size).toBeGreaterThan(80);
    expect([...names.values()].filter((paths) => paths.length > 1)).toEqual([]);
  });
});
