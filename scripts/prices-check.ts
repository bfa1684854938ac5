/**
 * `npm run prices:check`: prices the standard transactions of every model both our table and the catalog
 * (@pydantic/genai-prices) price, with each, and fails on a difference that
 * packages/prices/src/table/reviewed-differences.json does not list (with the vendor page deciding it), or on
 * a listed one that no longer holds. The same check runs in `npm test` (compare-with-catalog.test.ts).
 * `--draft` also prints entries for the unexplained differences, for a reviewer to complete with the reason.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { draftEntries, pricesCheck, type ReviewedDifference } from "@usage-ingestion/prices";
import { REPO_ROOT } from "./lib/services.ts";

const file = join(REPO_ROOT, "packages/prices/src/table/reviewed-differences.json");
const reviewed = (JSON.parse(readFileSync(file, "utf8")) as { differences: ReviewedDifference[] }).differences;
const { ok, lines, result } = pricesCheck(reviewed);
for (const line of lines) console.log(line);
if (process.argv.includes("--draft") && result.unexplained.length)
  console.log(JSON.stringify(draftEntries(result.unexplained), null, 2));
if (!ok) {
  console.error("prices:check failed: fix each difference, or list it with the vendor page that decides it");
  process.exit(1);
}
