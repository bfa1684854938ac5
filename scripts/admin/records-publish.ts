import type { Firestore } from "@google-cloud/firestore";
import { publishRecords, type RecordsFeed, RecordsPublishError } from "@usage-ingestion/records";
import { UserError } from "@usage-ingestion/shared";

/** `--name value` pairs; anything else is refused. */
function flags(args: string[], names: string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (!names.includes(arg)) throw new UserError(`unexpected "${arg}"`);
    const value = args[++index];
    if (value === undefined || value.startsWith("--")) throw new UserError(`${arg} needs a value`);
    values[arg] = value;
  }
  return values;
}

function isoTime(value: string | undefined, name: string): string {
  const parsed = value === undefined ? Number.NaN : Date.parse(value);
  if (Number.isNaN(parsed)) throw new UserError(`${name} must be an ISO 8601 time, like 2025-11-01T00:00:00Z`);
  return new Date(parsed).toISOString();
}

const USAGE = "usage: npm run admin -- records publish <org-id> --from ISO --to ISO";

/** `records publish <org-id> --from ISO --to ISO`: one line per page, then the count. */
export async function runRecordsCommand(
  action: string,
  args: string[],
  db: Firestore,
  feed: () => RecordsFeed,
  out: (line: string) => void,
): Promise<void> {
  if (action !== "publish") throw new UserError(`unknown command "records ${action}"; known: publish`);
  const [organizationId, ...rest] = args;
  if (!organizationId || organizationId.startsWith("--")) throw new UserError(USAGE);
  const values = flags(rest, ["--from", "--to"]);
  if (values["--from"] === undefined || values["--to"] === undefined) throw new UserError(USAGE);
  const from = isoTime(values["--from"], "--from");
  const to = isoTime(values["--to"], "--to");
  if (from >= to) throw new UserError("--from must be before --to");
  try {
    const { published } = await publishRecords(db, organizationId, feed(), {
      from,
      to,
      onPage: (count, lastReceivedAt) => out(`published ${count} records so far, up to ${lastReceivedAt}`),
    });
    out(`published ${published} records of ${organizationId} received from ${from} to ${to}`);
  } catch (error) {
    if (error instanceof RecordsPublishError) throw new UserError(error.message);
    throw error;
  }
}
