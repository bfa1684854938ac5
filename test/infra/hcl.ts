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
