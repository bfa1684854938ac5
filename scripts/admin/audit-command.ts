import { listAuditLog, MAX_AUDIT_PAGE } from "@usage-ingestion/audit";
import { type Databases, getOrganization } from "@usage-ingestion/organizations";
import { UserError } from "@usage-ingestion/shared";

/** Where a command writes its lines (main.ts passes console.log). */
type Out = (line: string) => void;

/** `audit <org> [--limit N]`: the organization's audit log, newest first, one entry a line. */
export async function runAuditCommand(rest: string[], db: Databases, out: Out): Promise<void> {
  const [organizationId, flag, value] = rest;
  if (!organizationId || (flag !== undefined && flag !== "--limit")) {
    throw new UserError("usage: npm run admin -- audit <org-id> [--limit N]");
  }
  const limit = flag ? Number(value) : 50;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_AUDIT_PAGE) {
    throw new UserError(`--limit must be a whole number from 1 to ${MAX_AUDIT_PAGE}`);
  }
  await getOrganization(db.records, organizationId);
  const { entries } = await listAuditLog([db.records, db.keys], organizationId, { limit });
  if (entries.length === 0) return out("no audit entries");
  for (const entry of entries) {
    out(
      [
        entry.at,
        `${entry.actor.type}:${entry.actor.id}`,
        entry.action,
        `${entry.target.type}:${entry.target.id}`,
        entry.request_id,
      ].join("\t"),
    );
  }
}
