import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { bundleOptions } from "../build.ts";
import pkg from "../package.json" with { type: "json" };
import chat from "./fixtures/openai/chat-completion.json" with { type: "json" };

const packageRoot = join(import.meta.dirname, "..");

describe("the built package", () => {
  it("is one ESM file that imports nothing from Node and uses no Node global", async () => {
    const result = await build({ ...bundleOptions, write: false, sourcemap: false });
    const [file] = result.outputFiles ?? [];
    const code = file?.text ?? "";
    expect(code).toMatch(/export\s*\{[^}]*createClient/);
    expect(code).not.toMatch(/["']node:/);
    expect(code).not.toMatch(/\brequire\(/);
    expect(code).not.toMatch(/\bBuffer\b/);
    expect(code).not.toMatch(/\bprocess\./);
    expect(code).not.toMatch(/^import /m);
    // The client's own code only: the contract is restated, not taken from the workspace package.
    expect(code).not.toMatch(/shared\/src|valibot/);

    // It runs on its own, with nothing but the platform's globals.
    const path = join(mkdtempSync(join(tmpdir(), "usage-client-")), "index.mjs");
    writeFileSync(path, code);
    const built = (await import(pathToFileURL(path).href)) as typeof import("../src/index.ts");
    expect(built.fromOpenAI(chat).transaction_id).toBe(chat.id);
  });

  it("points `exports` and `types` at what the build writes", () => {
    const outfile = `./${relative(packageRoot, bundleOptions.outfile as string)}`;
    // The workspace's own tests and type-check read the TypeScript through a condition of their own, which
    // nobody else sets; everyone else gets what the build writes.
    expect(pkg.exports["."]).toEqual({
      "@usage-ingestion/source": "./src/index.ts",
      types: "./dist/index.d.ts",
      import: outfile,
      default: outfile,
    });
    // TypeScript takes the first condition that matches: `types` must come first of those others match.
    expect(Object.keys(pkg.exports["."]).filter((name) => !name.startsWith("@"))[0]).toBe("types");
    expect(pkg.types).toBe("./dist/index.d.ts");
    expect([pkg.main, pkg.module]).toEqual([outfile, outfile]);
    expect(outfile).toBe("./dist/index.js");
  });

  it("is published with what the build writes and without dependencies", () => {
    expect(pkg.files).toContain("dist");
    expect(pkg).not.toHaveProperty("private");
    // The bundle holds everything it runs; the workspace package it is tested against is not published.
    expect(pkg).not.toHaveProperty("dependencies");
    expect(pkg.scripts.prepack).toBe("npm run build");
  });
});
