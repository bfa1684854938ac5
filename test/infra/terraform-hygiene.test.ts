import { beforeAll, describe, expect, it } from "vitest";
import { byFolder, type Hcl, parseInfra } from "./hcl.ts";

/**
 * Module hygiene, offline: each module declares the providers it uses at the current majors, every
 * variable says what it is for, and the example environment asks for the same providers as its modules.
 */
const GOOGLE = { source: "hashicorp/google", version: "~> 7.0" };
const ARCHIVE = { source: "hashicorp/archive", version: "~> 2.7" };

let folders = new Map<string, Hcl[]>();
beforeAll(async () => {
  folders = byFolder(await parseInfra());
});

const requiredProviders = (hcls: Hcl[]): Record<string, { source: string; version: string }> =>
  Object.assign({}, ...hcls.flatMap((hcl) => hcl.terraform ?? []).flatMap((block: Hcl) => block.required_providers));
/** The provider local names a folder's resources and data sources use (`google_pubsub_topic` -> google). */
const usedProviders = (hcls: Hcl[]) =>
  new Set(
    hcls.flatMap((hcl) =>
      [...Object.keys(hcl.resource ?? {}), ...Object.keys(hcl.data ?? {})].map((type) => type.split("_")[0]),
    ),
  );

describe("infra (Terraform) module hygiene", () => {
  it("has eleven modules and the example environment", () => {
    expect([...folders.keys()].filter((folder) => folder.startsWith("modules/"))).toHaveLength(11);
    expect(folders.has("envs/example")).toBe(true);
  });

  it("declares required_providers in every module, covering every provider it uses, at the current majors", () => {
    for (const [folder, hcls] of folders) {
      const declared = requiredProviders(hcls);
      expect(Object.keys(declared).sort(), folder).toEqual(expect.arrayContaining([...usedProviders(hcls)].sort()));
      expect(declared.google, folder).toEqual(GOOGLE);
      if (declared.archive) expect(declared.archive, folder).toEqual(ARCHIVE);
      const versions = hcls.flatMap((hcl) => hcl.terraform ?? []).map((block: Hcl) => block.required_version);
      expect(versions, folder).toContain(">= 1.6");
    }
  });

  it("asks in the example environment for every provider its modules need", () => {
    const root = requiredProviders(folders.get("envs/example") ?? []);
    for (const [folder, hcls] of folders) {
      for (const [name, requirement] of Object.entries(requiredProviders(hcls))) {
        expect(root[name], `${folder}: ${name}`).toEqual(requirement);
      }
    }
  });

  it("describes every variable", () => {
    const undescribed: string[] = [];
    for (const [folder, hcls] of folders) {
      for (const hcl of hcls) {
        for (const [name, [variable]] of Object.entries(hcl.variable ?? {}) as Array<[string, Hcl[]]>) {
          if (typeof variable?.description !== "string" || variable.description.trim().length < 10) {
            undescribed.push(`${folder}: ${name}`);
          }
        }
      }
    }
    expect(undescribed).toEqual([]);
  });
});
