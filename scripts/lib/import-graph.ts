import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The import graph of our own TypeScript files, type-only imports included, and the circles in it. A
 * bundler's graph leaves `import type` out, and the compiler we pin has no JavaScript API to ask, so the
 * statements are read here: every import in this repository names a relative `.ts` file or a workspace
 * package (`@usage-ingestion/...`, resolved through its `exports`); anything else is a package from npm.
 */
const SPECIFIER =
  /(?:^|[;\s])(?:import|export)\s(?:[^'"`;]*?\sfrom\s)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The export condition that names a package's TypeScript (tsconfig's `customConditions`, vitest's conditions). */
export const SOURCE_CONDITION = "@usage-ingestion/source";

/** Workspace package name -> its folder, from the root package.json's `workspaces`. */
export function workspacePackages(root: string): Map<string, string> {
  const { workspaces = [] } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { workspaces?: string[] };
  const found = new Map<string, string>();
  for (const pattern of workspaces) {
    const dirs = pattern.endsWith("/*")
      ? readdirSync(join(root, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => join(root, pattern.slice(0, -2), entry.name))
      : [join(root, pattern)];
    for (const dir of dirs) {
      if (!existsSync(join(dir, "package.json"))) continue;
      found.set((JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string }).name, dir);
    }
  }
  return found;
}

function resolver(root: string) {
  const packages = workspacePackages(root);
  return (from: string, specifier: string): string | null => {
    if (specifier.startsWith(".")) return resolve(dirname(from), specifier);
    const [scope, name, ...rest] = specifier.split("/");
    const dir = packages.get(`${scope}/${name}`);
    if (!dir) return null;
    const { exports = {} } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      exports?: Record<string, unknown>;
    };
    const entry = exports[rest.length ? `./${rest.join("/")}` : "."];
    // A conditional entry is read by its source condition, as the tests and the type-check read it.
    const target =
      typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>)[SOURCE_CONDITION] : entry;
    return typeof target === "string" && target.endsWith(".ts") ? resolve(dir, target) : null;
  };
}

/** Every `.ts` file under `dirs` (node_modules and dist left out) with the repository files it imports. */
export function importGraph(root: string, dirs: readonly string[]): Map<string, string[]> {
  const resolveImport = resolver(root);
  const graph = new Map<string, string[]>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "dist") visit(path);
      } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) {
        const text = readFileSync(path, "utf8");
        const imports = [...text.matchAll(SPECIFIER)]
          .map((match) => resolveImport(path, (match[1] ?? match[2]) as string))
          .filter((target): target is string => target?.endsWith(".ts") === true);
        graph.set(path, [...new Set(imports)]);
      }
    }
  };
  for (const dir of dirs) if (existsSync(join(root, dir))) visit(join(root, dir));
  return graph;
}

/** The circles in a graph, each as the files around it (relative to `root`), starting from its first file met. */
export function importCircles(graph: Map<string, string[]>, root: string): string[][] {
  const circles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const walk = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") circles.push(path.slice(path.indexOf(next)).map((f) => relative(root, f)));
      else if (!state.has(next) && graph.has(next)) walk(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) walk(file);
  return circles;
}

/**
 * Imports that reach into another package's files by a relative path (`../../packages/prices/src/price-usage.ts`)
 * instead of through its exports (`@usage-ingestion/prices`), as `from -> to` relative to `root`. Files
 * outside every package (scripts, tests) belong to none, so any path of theirs into a package's `src/`
 * counts; a package's own files import each other freely.
 */
export function crossPackageImports(root: string, dirs: readonly string[]): string[] {
  const packageDirs = [...workspacePackages(root).values()].sort((a, b) => b.length - a.length);
  const owner = (file: string) => packageDirs.find((dir) => file.startsWith(`${dir}/`));
  const found: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "dist") visit(path);
      } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) {
        for (const match of readFileSync(path, "utf8").matchAll(SPECIFIER)) {
          const specifier = (match[1] ?? match[2]) as string;
          if (!specifier.startsWith(".")) continue;
          const target = resolve(dirname(path), specifier);
          const targetOwner = owner(target);
          if (!targetOwner || targetOwner === owner(path)) continue;
          if (relative(targetOwner, target).split("/").includes("src"))
            found.push(`${relative(root, path)} -> ${relative(root, target)}`);
        }
      }
    }
  };
  for (const dir of dirs) if (existsSync(join(root, dir))) visit(join(root, dir));
  return found;
}
