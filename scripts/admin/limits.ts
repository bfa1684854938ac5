import type { Firestore } from "@google-cloud/firestore";
import { parseGatewayConfig, rateLimitConfig } from "@usage-ingestion/gateway";
import { getOrganization, ORGANIZATION_LIMIT_NAMES, type OrganizationLimits } from "@usage-ingestion/organizations";
import { DOCUMENT_PATHS, UserError } from "@usage-ingestion/shared";

type Out = (line: string) => void;

/** `--ingest-transactions-per-second 200` names `ingest_transactions_per_second`. */
const OPTIONS = Object.fromEntries(ORGANIZATION_LIMIT_NAMES.map((name) => [`--${name.replaceAll("_", "-")}`, name]));
const USAGE = `usage: npm run admin -- org limits set <org-id> ${Object.keys(OPTIONS)
  .map((option) => `[${option} N|default]`)
  .join(" ")} | org limits show <org-id>`;

/** The defaults the gateway runs with unless its environment says otherwise (RATE_LIMIT_*). */
function defaults(env: NodeJS.ProcessEnv): Required<OrganizationLimits> {
  const { organization } = rateLimitConfig(parseGatewayConfig(env));
  return {
    ingest_transactions_per_second: organization.ingestPerSecond,
    ingest_burst_transactions: organization.ingestBurst,
    reports_per_minute: organization.reportsPerMinute,
  };
}

function parseLimits(rest: string[]): Record<string, number | null> {
  const changes: Record<string, number | null> = {};
  for (let i = 0; i < rest.length; i += 2) {
    const option = rest[i] as string;
    const value = rest[i + 1];
    const name = Object.hasOwn(OPTIONS, option) ? OPTIONS[option] : undefined;
    if (!name || value === undefined) throw new UserError(USAGE);
    if (value === "default") changes[name] = null;
    else if (/^\d+$/.test(value) && Number(value) <= 1_000_000_000) changes[name] = Number(value);
    else throw new UserError(`${option} must be a whole number (at most 1000000000) or "default"`);
  }
  if (Object.keys(changes).length === 0) throw new UserError(USAGE);
  return changes;
}

/**
 * `org limits set|show`: an organization's own rate limits, kept on its document, which the gateway reads
 * with each key (so a change applies within the key cache time). Absent limits take the gateway's defaults.
 */
export async function runLimitsCommand(rest: string[], db: Firestore, out: Out, env = process.env): Promise<void> {
  const [verb, organizationId, ...options] = rest;
  if (!organizationId || (verb !== "set" && verb !== "show")) throw new UserError(USAGE);
  const organization = await getOrganization(db, organizationId);
  let limits: OrganizationLimits = { ...organization.limits };
  if (verb === "set") {
    for (const [name, value] of Object.entries(parseLimits(options))) {
      if (value === null) delete limits[name as keyof OrganizationLimits];
      else limits[name as keyof OrganizationLimits] = value;
    }
    await db.doc(DOCUMENT_PATHS.organization(organizationId)).update({ limits });
    limits = (await getOrganization(db, organizationId)).limits ?? {};
  }
  const fallback = defaults(env);
  for (const name of ORGANIZATION_LIMIT_NAMES) {
    const own = limits[name];
    out(`${name}\t${own ?? fallback[name]}\t${own === undefined ? "default" : "own"}`);
  }
}
