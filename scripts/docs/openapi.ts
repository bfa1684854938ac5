import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openApiDocument } from "../../services/gateway/src/openapi/document.ts";
import { REPO_ROOT } from "../lib/services.ts";

/** `npm run openapi`: writes docs/openapi.json, the document GET /openapi.json serves. */
export const OPENAPI_FILE = join(REPO_ROOT, "docs", "openapi.json");
export const openApiText = () => `${JSON.stringify(openApiDocument(), null, 2)}\n`;

if (process.argv[1]?.endsWith("docs/openapi.ts")) {
  writeFileSync(OPENAPI_FILE, openApiText());
  console.log(`wrote ${OPENAPI_FILE}`);
}
