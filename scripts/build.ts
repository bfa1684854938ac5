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
