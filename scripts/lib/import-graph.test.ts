import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { crossPackageImports, importCircles, importGraph, workspacePackages } from "./import-graph.ts";
import { REPO_ROOT } from "./services.ts";

const SOURCE_DIRS = ["shared", "packages", "services", "clients", "scripts", "test"];

/** The names a file imports from `@usage-ingestion/shared`. */
const importedFromShared = (text: string): string[] =>
  [...text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"@usage-ingestion\/shared"/g)].flatMap((m) =>
    (m[1] ?? "").split(",").map(
      (part) =>
        part
          .replace(/^\s*type\s+/, "")
          .split(/\s+as\s+/)[0]
          ?.trim() ?? "",
    ),
  );

describe("imports", () => {
  it("form no circle anywhere in the repository, type-only imports included", () => {
    const graph = importGraph(REPO_ROOT, SOURCE_DIRS);
    expect(graph.size).toBeGreaterThan(200);
    expect(importCircles(graph, REPO_ROOT)).toEqual([]);
  });

  it("reach another package only through its exports, from every package, script and test", () => {
    expect(crossPackageImports(REPO_ROOT, SOURCE_DIRS)).toEqual([]);
    // The command line reads reports as every other caller does: the package's entry, not its files.
    const graph = importGraph(REPO_ROOT, ["scripts/admin"]);
    const reports = graph.get(join(REPO_ROOT, "scripts/admin/report-commands.ts")) ?? [];
    expect(reports).toContain(join(REPO_ROOT, "packages/reports/src/index.ts"));
  });

  it("never lead from a domain package to a deployable: the services compose the packages, not the reverse", () => {
    const deployables = [...workspacePackages(REPO_ROOT).values()].filter((dir) => dir.includes("/services/"));
    expect(deployables.length).toBe(2);
    const graph = importGraph(REPO_ROOT, ["shared", "packages"]);
    const upward = [...graph].flatMap(([file, imports]) =>
      imports.filter((target) => deployables.some((dir) => target.startsWith(`${dir}/`))).map((t) => `${file} -> ${t}`),
    );
    expect(upward).toEqual([]);
  });

  it("leave HTTP statuses to the edge: no domain package builds an error reply", () => {
    const replies = readFileSync(join(REPO_ROOT, "shared/src/error-replies.ts"), "utf8");
    const builders = [...replies.matchAll(/^export (?:const|interface|type|function) (\w+)/gm)].map((m) => m[1]);
    expect(builders).toContain("ErrorReply");
    expect(builders).toContain("validationFailed");
    const found: string[] = [];
    for (const name of readdirSync(join(REPO_ROOT, "packages"))) {
      const src = join(REPO_ROOT, "packages", name, "src");
      for (const file of readdirSync(src, { recursive: true, encoding: "utf8" })) {
        if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
        const text = readFileSync(join(src, file), "utf8");
        // A builder is reached by importing it from shared; the same word in prose or a string (a record's
        // status `conflict`) is not one.
        for (const builder of builders)
          if (importedFromShared(text).includes(builder as string)) found.push(`${name}/${file}: ${builder}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("are found reaching into another package's src by a relative path, and only then", () => {
    const root = mkdtempSync(join(tmpdir(), "import-paths-"));
    writeFileSync(join(root, "package.json"), JSON.stringify({ workspaces: ["pkgs/*"] }));
    for (const name of ["a", "b"]) {
      mkdirSync(join(root, "pkgs", name, "src"), { recursive: true });
      writeFileSync(
        join(root, "pkgs", name, "package.json"),
        JSON.stringify({ name: `@x/${name}`, exports: { ".": "./src/index.ts" } }),
      );
      writeFileSync(join(root, "pkgs", name, "src", "index.ts"), "export const x = 1;\n");
    }
    writeFileSync(join(root, "pkgs", "a", "src", "own.ts"), 'import { x } from "./index.ts";\nexport { x };\n');
    writeFileSync(join(root, "pkgs", "a", "src", "fine.ts"), 'import { x } from "@x/b";\nexport { x };\n');
    writeFileSync(join(root, "pkgs", "a", "src", "deep.ts"), 'export * from "../../b/src/index.ts";\n');
    mkdirSync(join(root, "scripts"));
    writeFileSync(join(root, "scripts", "tool.ts"), 'const m = await import("../pkgs/b/src/index.ts");\n');
    expect(crossPackageImports(root, ["pkgs", "scripts"]).sort()).toEqual([
      "pkgs/a/src/deep.ts -> pkgs/b/src/index.ts",
      "scripts/tool.ts -> pkgs/b/src/index.ts",
    ]);
  });

  it("are found circling through a type-only import and a workspace package", () => {
    const root = mkdtempSync(join(tmpdir(), "import-graph-"));
    writeFileSync(join(root, "package.json"), JSON.stringify({ workspaces: ["pkgs/*"] }));
    mkdirSync(join(root, "pkgs", "a", "src"), { recursive: true });
    writeFileSync(
      join(root, "pkgs", "a", "package.json"),
      JSON.stringify({ name: "@x/a", exports: { ".": "./src/index.ts" } }),
    );
    writeFileSync(
      join(root, "pkgs", "a", "src", "index.ts"),
      'import type { B } from "./b.ts";\nexport const a = 1;\n',
    );
    writeFileSync(join(root, "pkgs", "a", "src", "b.ts"), 'import { a } from "@x/a";\nexport type B = typeof a;\n');
    writeFileSync(
      join(root, "pkgs", "a", "src", "c.ts"),
      'import { readFileSync } from "node:fs";\nexport * from "./b.ts";\n',
    );
    const circles = importCircles(importGraph(root, ["pkgs"]), root);
    expect(circles).toEqual([["pkgs/a/src/b.ts", "pkgs/a/src/index.ts"]]);
  });
});
