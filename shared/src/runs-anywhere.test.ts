import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

/**
 * The contract is imported by browsers and edge runtimes: bundling the package's main entry for the
 * browser must need no Node built-in and no Node global.
 */
describe("shared's main entry", () => {
  it("bundles for the browser without Node built-ins or globals", async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL("./index.ts", import.meta.url))],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    const code = result.outputFiles[0]?.text ?? "";
    expect(code.length).toBeGreaterThan(1000);
    expect(code).not.toMatch(/from\s*["']node:|require\(["']node:/);
    expect(code).not.toMatch(/\bprocess\.(stdout|env|hrtime)|\bBuffer\./);
  });
});
