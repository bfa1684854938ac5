import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importCircles, importGraph } from "./import-graph.ts";
import { REPO_ROOT } from "./services.ts";

const SOURCE_DIRS = ["shared", "services", "clients", "scripts", "test"];

describe("imports", () => {
  it("form no circle anywhere in the repository, type-only imports included", () => {
    const graph = importGraph(REPO_ROOT, SOURCE_DIRS);
    expect(graph.size).toBeGreaterThan(200);
    expect(importCircles(graph, REPO_ROOT)).toEqual([]);
  });

  it("reach a workspace package through its exports, as the services and the admin command line do", () => {
    const graph = importGraph(REPO_ROOT, ["scripts/admin"]);
    const reports = graph.get(join(REPO_ROOT, "scripts/admin/report-commands.ts")) ?? [];
    expect(reports).toContain(join(REPO_ROOT, "services/reports/src/index.ts"));
    expect(reports.some((file) => file.includes("services/gateway/"))).toBe(false);
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
