import type { Firestore } from "@google-cloud/firestore";
import type { ChangeContext } from "@usage-ingestion/audit";
import {
  getOrganization,
  MAX_ORGANIZATION_LIMIT,
  ORGANIZATION_LIMIT_NAMES,
  type OrganizationLimitChanges,
  type OrganizationLimits,
  organizationLimitDefaults,
  setOrganizationLimits,
} from "@usage-ingestion/organizations";
import { UserError } from "@usage-ingestion/shared";

type Out = (line: string) => void;

/** `--ingest-transactions-per-second 200` names `ingest_transactions_per_second`. */
const OPTIONS = Object.fromEntries(ORGANIZATION_LIMIT_NAMES.map((name) => [`--${name.replaceAll("_", "-")}`, name]));
const USAGE = `usage: npm run admin -- org limits set <org-id> ${Object.keys(OPTIONS)
  .map((option) => `[${option} N|default]`)
  .join(" ")} | org limits show <org-id>`;

function parseLimits(rest: string[]): OrganizationLimitChanges {
  const changes: OrganizationLimitChanges = {};
  for (let i = 0; i < rest.length; i += 2) {
    const option = rest[i] as string;
    const value = rest[i + 1];
    const name = Object.hasOwn(OPTIONS, option) ? OPTIONS[option] : undefined;
    if (!name || value === undefined) throw new UserError(USAGE);
    if (value === "default") changes[name] = null;
    else if (/^\d+$/.test(value) && Number(value) <= MAX_ORGANIZATION_LIMIT) changes[name] = Number(value);
    else throw new UserError(`${option} must be a whole number (at most ${MAX_ORGANIZATION_LIMIT}) or "default"`);
  }
  if (Object.keys(changes).length === 0) throw new UserError(USAGE);
  return changes;
}

/**
 * `org limits set|show`: an organization's own rate limits, kept on its document, which the gateway reads
 * with each key (so a change applies within the key cache time). Absent limits take the gateway's defaults.
 */
export async function runLimitsCommand(
  rest: string[],
  db: Firestore,
  out: Out,
  change: ChangeContext,
  env = process.env,
): Promise<void> {
  const [verb, organizationId, ...options] = rest;
  if (!organizationId || (verb !== "set" && verb !== "show")) throw new UserError(USAGE);
  const stored: OrganizationLimits = (await getOrganization(db, organizationId)).limits ?? {};
  const optionOf = (name: string) => `--${name.replaceAll("_", "-")}`;
  const limits =
    verb === "set" ? await setOrganizationLimits(db, organizationId, parseLimits(options), optionOf, change) : stored;
  const fallback = organizationLimitDefaults(env);
  for (const name of ORGANIZATION_LIMIT_NAMES) {
    const own = limits[name];
    out(`${name}\t${own ?? fallback[name]}\t${own === undefined ? "default" : "own"}`);
  }
}
