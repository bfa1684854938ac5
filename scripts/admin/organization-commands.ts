import type { Firestore } from "@google-cloud/firestore";
import type { ChangeContext } from "@usage-ingestion/audit";
import { createOrganizationWithOwner, normalizeEmail } from "@usage-ingestion/members";
import { createOrganization, setOrganizationStatus } from "@usage-ingestion/organizations";
import { UserError } from "@usage-ingestion/shared";

type Out = (line: string) => void;

const CREATE_USAGE = "usage: npm run admin -- org create <org-id> [--name NAME] --owner EMAIL";

/** `--name NAME`, `--owner EMAIL` after the id; anything else is a mistake worth naming. */
function createOptions(options: string[]): { name?: string; owner?: string } {
  const parsed: { name?: string; owner?: string } = {};
  for (let i = 0; i < options.length; i += 2) {
    const [option, value] = [options[i], options[i + 1]];
    if (option !== "--name" && option !== "--owner") throw new UserError(CREATE_USAGE);
    if (!value || value.startsWith("--")) throw new UserError(`${option} needs a value`);
    parsed[option === "--name" ? "name" : "owner"] = value;
  }
  return parsed;
}

/**
 * `org create <org-id> [--name NAME] [--owner EMAIL]`: with `--owner`, the organization and its first
 * owner's invitation are one transaction (the owner can then manage everything else alone). Without it,
 * an organization only an operator manages, as before owners existed.
 */
export async function runOrgCreate(rest: string[], db: Firestore, out: Out, change: ChangeContext): Promise<void> {
  const [id, ...options] = rest;
  if (!id || id.startsWith("--")) throw new UserError(CREATE_USAGE);
  const { name, owner } = createOptions(options);
  if (owner === undefined) {
    const org = await createOrganization(db, id, name, undefined, change);
    return out(`created organization ${org.id} (${org.name})`);
  }
  const email = normalizeEmail(owner);
  if (!email) throw new UserError(`--owner: "${owner}" is not an email address`);
  const created = await createOrganizationWithOwner(db, { id, name: name ?? id }, email, change);
  out(`created organization ${created.organization.id} (${created.organization.name})`);
  out(`invited ${created.owner.email} as its owner; it takes effect when they sign in with that verified email`);
}

/** `org disable|enable <org-id>`: refuse or accept the organization's keys again. */
export async function runOrgStatus(
  action: "disable" | "enable",
  rest: string[],
  db: Firestore,
  out: Out,
  change: ChangeContext,
): Promise<void> {
  const [id] = rest;
  if (!id || rest.length > 1) throw new UserError(`usage: npm run admin -- org ${action} <org-id>`);
  const status = action === "disable" ? "disabled" : "active";
  await setOrganizationStatus(db, id, status, change);
  out(`organization ${id} is ${status}`);
}
