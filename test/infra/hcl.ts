import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "@cdktf/hcl2json";
import { REPO_ROOT } from "../../scripts/lib/services.ts";

/** infra/'s Terraform files parsed with hcl2json, keyed by their path under infra/. */
export const INFRA = join(REPO_ROOT, "infra");
// biome-ignore lint/suspicious/noExplicitAny: parsed HCL is checked by the assertions
export type Hcl = Record<string, any>;

function tfFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name.startsWith(".")) return [];
    if (statSync(path).isDirectory()) return tfFiles(path);
    return name.endsWith(".tf") ? [path] : [];
  });
}

export async function parseInfra(): Promise<Map<string, Hcl>> {
  const files = new Map<string, Hcl>();
  for (const path of tfFiles(INFRA)) files.set(relative(INFRA, path), await parse(path, readFileSync(path, "utf8")));
  return files;
}

/** Each Terraform root or module folder (`modules/worker`, `envs/example`) with its files' parsed HCL. */
export function byFolder(files: Map<string, Hcl>): Map<string, Hcl[]> {
  const folders = new Map<string, Hcl[]>();
  for (const [path, hcl] of files) {
    const folder = path.slice(0, path.lastIndexOf("/"));
    folders.set(folder, [...(folders.get(folder) ?? []), hcl]);
  }
  return folders;
}

/** `${expression}`, as hcl2json writes an interpolation. */
export const tf = (expression: string) => `\${${expression}}`;

/** Look-ups in parsed Terraform: the first block of a kind and type (and name) in a folder. */
export function infraQuery(files: Map<string, Hcl>) {
  const inFolder = (folder: string) =>
    [...files.entries()].filter(([path]) => path.startsWith(`${folder}/`)).map(([, hcl]) => hcl);
  const block = (folder: string, kind: string, type: string, name?: string): Hcl => {
    for (const hcl of inFolder(folder)) {
      const found = name === undefined ? hcl[kind]?.[type] : hcl[kind]?.[type]?.[name];
      if (found) return found[0];
    }
    throw new Error(`no ${kind} ${type}${name ? `.${name}` : ""} in ${folder}`);
  };
  return {
    inFolder,
    block,
    resource: (module: string, type: string, name: string) => block(`modules/${module}`, "resource", type, name),
    variable: (folder: string, name: string) => block(folder, "variable", name),
    output: (folder: string, name: string) => block(folder, "output", name),
    local: (folder: string, name: string) =>
      inFolder(folder)
        .flatMap((hcl) => hcl.locals ?? [])
        .find((locals: Hcl) => name in locals)?.[name],
    exampleModule: (name: string) => block("envs/example", "module", name),
    /** A module call in a module, e.g. the worker's `fold` (an instance of modules/scheduled-function). */
    moduleCall: (module: string, name: string) => block(`modules/${module}`, "module", name),
  };
}
