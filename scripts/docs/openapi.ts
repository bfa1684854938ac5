import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openApiDocument } from "@usage-ingestion/gateway";
import { REPO_ROOT } from "../lib/services.ts";

/** `npm run openapi`: writes docs/openapi.json, the document GET /openapi.json serves. */
export const OPENAPI_FILE = join(REPO_ROOT, "docs", "openapi.json");
export const openApiText = () => `${JSON.stringify(openApiDocument(), null, 2)}\n`;

if (process.argv[1]?.endsWith("docs/openapi.ts")) {
  writeFileSync(OPENAPI_FILE, openApiText());
  // Formatted as the repository's formatter wants it, so `npm run lint` stays clean.
  spawnSync("npx", ["biome", "format", "--write", OPENAPI_FILE], { cwd: REPO_ROOT, stdio: "inherit" });
  console.log(`wrote ${OPENAPI_FILE}`);
}
