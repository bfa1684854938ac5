import { execFileSync } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type BuildOptions, build } from "esbuild";

const root = dirname(fileURLToPath(import.meta.url));

/**
 * One ESM file for every runtime: `platform: "neutral"` resolves no Node built-in, so a `node:` import
 * that crept in fails the build (and the bundle test) instead of breaking browsers and edge runtimes.
 */
export const bundleOptions: BuildOptions = {
  entryPoints: [join(root, "src", "index.ts")],
  outfile: join(root, "dist", "index.js"),
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  sourcemap: true,
  logLevel: "warning",
};

/** JavaScript with esbuild, declarations with tsc. */
async function main() {
  rmSync(join(root, "dist"), { recursive: true, force: true });
  await build(bundleOptions);
  execFileSync("tsc", ["-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });
  // Declarations name their neighbours as the built files, for every module resolution mode.
  const packageImports: string[] = [];
  for (const file of readdirSync(join(root, "dist"), { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".d.ts")) continue;
    const path = join(root, "dist", file);
    const text = readFileSync(path, "utf8").replace(/(from "\.{1,2}\/[^"]+)\.ts"/g, '$1.js"');
    writeFileSync(path, text);
    for (const [, name] of text.matchAll(/(?:from |import\(|reference types=)"([^."][^"]*)"/g))
      packageImports.push(`${file}: ${name}`);
  }
  // The package is published without dependencies: a declaration naming a package (the unpublished
  // workspace one, say) would leave its users' types unresolved.
  if (packageImports.length > 0) throw new Error(`declarations import packages:\n${packageImports.join("\n")}`);
  // The licence travels with the package others install; the repository keeps one copy, at its root.
  copyFileSync(join(root, "..", "..", "LICENSE"), join(root, "LICENSE"));
  console.log("built dist/index.js and dist/index.d.ts");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
