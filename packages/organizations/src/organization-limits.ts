import type { Firestore } from "@google-cloud/firestore";
import { type ChangeContext, operatorChange, recordChange } from "@usage-ingestion/audit";
import { UserError } from "@usage-ingestion/shared";
import { integerVar, parseConfig } from "@usage-ingestion/shared/server";
import * as v from "valibot";
import { ORGANIZATION_LIMIT_NAMES, type OrganizationLimits } from "./organization-documents.ts";
import { organizationIn } from "./organizations.ts";

/** The largest limit an organization may be given. */
export const MAX_ORGANIZATION_LIMIT = 1_000_000_000;

/**
 * The defaults of every organization's limits, per gateway instance: the gateway's environment (RATE_LIMIT_*)
 * sets them; an organization's own limits win over them.
 */
export const ORGANIZATION_LIMIT_DEFAULTS_ENV = {
  RATE_LIMIT_ORG_TRANSACTIONS_PER_SECOND: integerVar(1_000),
  RATE_LIMIT_ORG_BURST_TRANSACTIONS: integerVar(10_000, 0),
  RATE_LIMIT_ORG_REPORTS_PER_MINUTE: integerVar(120),
};
const LimitDefaultsSchema = v.object(ORGANIZATION_LIMIT_DEFAULTS_ENV);

/** The limits an organization without its own runs with, read from the environment as the gateway reads it. */
export function organizationLimitDefaults(env: Record<string, string | undefined>): Required<OrganizationLimits> {
  const config = parseConfig(LimitDefaultsSchema, env);
  return {
    ingest_transactions_per_second: config.RATE_LIMIT_ORG_TRANSACTIONS_PER_SECOND,
    ingest_burst_transactions: config.RATE_LIMIT_ORG_BURST_TRANSACTIONS,
    reports_per_minute: config.RATE_LIMIT_ORG_REPORTS_PER_MINUTE,
  };
}

export type OrganizationLimitName = (typeof ORGANIZATION_LIMIT_NAMES)[number];
/** A change to an organization's limits: a whole number sets one, null gives it back to the default. */
export type OrganizationLimitChanges = Partial<Record<OrganizationLimitName, number | null>>;

/**
 * Sets or clears an organization's own limits, kept on its document; the gateway reads them with each key,
 * so a change applies within the key cache time. `label` names a limit in an error (a command-line option,
 * a field). The change and its `organization.limits_updated` entry are one transaction. Returns the limits
 * as stored.
 */
export async function setOrganizationLimits(
  db: Firestore,
  organizationId: string,
  changes: OrganizationLimitChanges,
  label: (name: OrganizationLimitName) => string = (name) => name,
  change: ChangeContext = operatorChange(),
): Promise<OrganizationLimits> {
  return db.runTransaction(async (transaction) => {
    const { ref, organization } = await organizationIn(transaction, db, organizationId);
    const before: OrganizationLimits = organization.limits ?? {};
    const limits = applyLimitChanges(before, changes, label);
    transaction.update(ref, { limits });
    recordChange(transaction, db, organizationId, change, {
      action: "organization.limits_updated",
      target: { type: "organization", id: organizationId },
      before: { limits: before },
      after: { limits },
    });
    return limits;
  });
}

/** The limits `changes` leave, each value checked; `before` is left as it was. */
function applyLimitChanges(
  before: OrganizationLimits,
  changes: OrganizationLimitChanges,
  label: (name: OrganizationLimitName) => string,
): OrganizationLimits {
  const limits: OrganizationLimits = { ...before };
  for (const [name, value] of Object.entries(changes) as Array<[OrganizationLimitName, number | null | undefined]>) {
    if (!ORGANIZATION_LIMIT_NAMES.includes(name)) throw new UserError(`"${name}" is not a limit`);
    if (value === undefined) continue;
    if (value === null) {
      delete limits[name];
    } else if (!Number.isSafeInteger(value) || value < 0 || value > MAX_ORGANIZATION_LIMIT) {
      throw new UserError(`${label(name)} must be a whole number (at most ${MAX_ORGANIZATION_LIMIT}) or "default"`);
    } else {
      limits[name] = value;
    }
  }
  return limits;
}
