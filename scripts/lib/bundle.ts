import { build } from "esbuild";
import { nodeMajor } from "./node-version.ts";
import { REPO_ROOT } from "./services.ts";

/**
 * Each service bundled into one ES module, with our TypeScript and Valibot inside and the Google Cloud
 * clients, Express, the pricing catalog and the auth library left as installed packages (they load data files
 * at run time; the auth library is the one the Google Cloud clients share).
 */
export const EXTERNAL_PACKAGES = [
  "@google-cloud/*",
  "@pydantic/genai-prices",
  "express",
  "google-auth-library",
  // Loaded by the Google clients anyway: one copy, theirs (the gRPC channel decodes errors with it).
  "google-gax",
];

export const BUNDLES = {
  gateway: { entry: "services/gateway/src/server.ts", out: "services/gateway/dist/server.js" },
  worker: { entry: "services/cost-worker/src/index.ts", out: "services/cost-worker/dist/index.js" },
} as const;

export function isExternal(name: string): boolean {
  return EXTERNAL_PACKAGES.some((pattern) =>
    pattern.endsWith("/*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern,
  );
}

export async function bundle(target: (typeof BUNDLES)[keyof typeof BUNDLES]): Promise<void> {
  await build({
    absWorkingDir: REPO_ROOT,
    entryPoints: [target.entry],
    outfile: target.out,
    bundle: true,
    platform: "node",
    format: "esm",
    target: `node${nodeMajor()}`,
    external: EXTERNAL_PACKAGES,
    sourcemap: true,
    logLevel: "warning",
    // Bundled CommonJS helpers need `require` in an ES module.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  console.log(`built ${target.out}`);
}
