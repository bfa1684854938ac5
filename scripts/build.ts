import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { REPO_ROOT } from "./lib/services.ts";

/**
 * `npm run build`: each service bundled into one ES module, with our TypeScript and Valibot inside and
 * the Google Cloud clients, Express and the pricing catalog left as installed packages (they load data
 * files at run time). This is what the container images and the benchmark run.
 */
const external = ["@google-cloud/*", "@pydantic/genai-prices", "express"];
const targets = [
  { entry: "services/gateway/src/server.ts", out: "services/gateway/dist/server.js" },
  { entry: "services/cost-worker/src/index.ts", out: "services/cost-worker/dist/index.js" },
];

for (const target of targets) {
  await build({
    absWorkingDir: REPO_ROOT,
    entryPoints: [target.entry],
    outfile: target.out,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external,
    sourcemap: true,
    logLevel: "warning",
    // Bundled CommonJS helpers need `require` in an ES module.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  console.log(`built ${target.out}`);
}

/**
 * The worker's dist/ is what Cloud Functions builds from (infra zips it): its package.json lists only
 * the packages left outside the bundle, at the versions the workspace pins.
 */
const workerPackage = JSON.parse(readFileSync(join(REPO_ROOT, "services/cost-worker/package.json"), "utf8")) as {
  dependencies: Record<string, string>;
};
const runtimeDependencies = Object.fromEntries(
  Object.entries(workerPackage.dependencies).filter(([name]) =>
    external.some((pattern) => (pattern.endsWith("/*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern)),
  ),
);
writeFileSync(
  join(REPO_ROOT, "services/cost-worker/dist/package.json"),
  `${JSON.stringify(
    {
      name: "usage-cost-worker",
      private: true,
      type: "module",
      main: "index.js",
      engines: { node: ">=20" },
      dependencies: runtimeDependencies,
    },
    null,
    2,
  )}\n`,
);
console.log("wrote services/cost-worker/dist/package.json");
