import { readFile, stat } from "node:fs/promises";
import type { Firestore } from "@google-cloud/firestore";
import type { ChangeContext } from "@usage-ingestion/audit";
import {
  CONNECTION_VENDORS,
  type ConnectionView,
  connectionView,
  deleteConnection,
  isConnectionVendor,
  listConnections,
  MAX_CREDENTIAL_LENGTH,
  putConnection,
} from "@usage-ingestion/reconciliation";
import { UserError } from "@usage-ingestion/shared";
import type { SecretBox } from "@usage-ingestion/webhooks";

type Out = (line: string) => void;

export const CONNECTIONS_HELP = `Vendor connections for reconciliation (docs/reconciliation.md)
  org connections list <org-id>       vendor, status, created, last run, last error, mappings; never
                                      a credential
  org connections set <org-id> <vendor> [--credential-file FILE] [--map FIELD=DIMENSION]...
                                      connect openai, anthropic, gemini or bedrock, or replace the
                                      connection's credential and mappings: the credential is read from
                                      FILE, or else from standard input (never an argument), sealed
                                      with WEBHOOK_SECRET_KEY and never printed; --map sends one of the
                                      vendor's ids (project_id, workspace_id, ...) to a declared
                                      dimension (none given: no mappings)
  org connections delete <org-id> <vendor>
                                      remove the connection and its stored credential`;

const USAGE =
  "usage: npm run admin -- org connections list <org-id> | set <org-id> <vendor> [--credential-file FILE] " +
  "[--map FIELD=DIMENSION]... | delete <org-id> <vendor>";

/** The largest credential file read: a key or an ARN with a line end, with room to spare. */
const MAX_CREDENTIAL_FILE_BYTES = 4 * MAX_CREDENTIAL_LENGTH;

export interface ConnectionClients {
  box: () => SecretBox;
  /** Standard input, whole, as text: where a credential comes from without --credential-file. */
  stdin: () => Promise<string>;
}

/** Reads standard input whole, at most MAX_CREDENTIAL_FILE_BYTES; a terminal is not read (nothing piped). */
export async function readStandardInput(
  input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin,
): Promise<string> {
  if (input.isTTY) {
    throw new UserError(
      "give the credential in a file (--credential-file FILE) or pipe it in; it is never an argument",
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_CREDENTIAL_FILE_BYTES) throw new UserError("standard input is too large to be a credential");
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function credentialFile(path: string): Promise<string> {
  const info = await stat(path).catch(() => {
    throw new UserError(`--credential-file: cannot read ${path}`);
  });
  if (!info.isFile() || info.size > MAX_CREDENTIAL_FILE_BYTES) {
    throw new UserError(`--credential-file: ${path} is not a file of at most ${MAX_CREDENTIAL_FILE_BYTES} bytes`);
  }
  return readFile(path, "utf8");
}

function vendorOf(text: string | undefined) {
  if (text && isConnectionVendor(text)) return text;
  throw new UserError(`the vendor must be one of: ${CONNECTION_VENDORS.join(", ")}`);
}

/** `--credential-file FILE` and each `--map FIELD=DIMENSION`; anything else is refused. */
function setOptions(options: string[]): { file?: string; mappings: Record<string, string> } {
  const mappings: Record<string, string> = {};
  let file: string | undefined;
  for (let i = 0; i < options.length; i += 2) {
    const [option, value] = [options[i], options[i + 1]];
    if (option !== "--credential-file" && option !== "--map") throw new UserError(USAGE);
    if (!value || value.startsWith("--")) throw new UserError(`${option} needs a value`);
    if (option === "--credential-file") file = value;
    else {
      const match = /^([^=]+)=([^=]+)$/.exec(value);
      if (!match) throw new UserError(`--map takes FIELD=DIMENSION, such as project_id=team`);
      const [, field, dimension] = match as unknown as [string, string, string];
      if (Object.hasOwn(mappings, field)) throw new UserError(`--map: ${field} is mapped twice`);
      mappings[field] = dimension;
    }
  }
  return { ...(file ? { file } : {}), mappings };
}

const line = (view: ConnectionView) =>
  [
    view.vendor,
    view.status,
    view.created_at,
    view.last_run_at ?? "-",
    view.last_error ?? "-",
    Object.entries(view.mappings)
      .map(([field, dimension]) => `${field}=${dimension}`)
      .join(",") || "-",
  ].join("\t");

/**
 * `org connections list|set|delete`: an organization's connections to the vendors' reports, as
 * `/v1/orgs/{org}/connections` manages them; `change` names the operator in the audit log.
 */
export async function runConnectionsCommand(
  rest: string[],
  db: Firestore,
  out: Out,
  clients: ConnectionClients,
  change: ChangeContext,
): Promise<void> {
  const [verb, organizationId, ...more] = rest;
  if (!organizationId || organizationId.startsWith("--")) throw new UserError(USAGE);
  switch (verb) {
    case "list": {
      if (more.length > 0) throw new UserError(USAGE);
      const connections = await listConnections(db, organizationId);
      if (connections.length === 0) return out(`no connections of ${organizationId}`);
      for (const connection of connections) out(line(connectionView(connection)));
      return;
    }
    case "set": {
      const [vendorText, ...options] = more;
      const vendor = vendorOf(vendorText);
      const { file, mappings } = setOptions(options);
      const credential = file ? await credentialFile(file) : await clients.stdin();
      const { connection, created } = await putConnection(db, clients.box(), organizationId, vendor, {
        credential,
        mappings,
        change,
      });
      out(
        `${created ? "connected" : "replaced the connection of"} ${organizationId} to ${vendor}; the credential is stored sealed`,
      );
      return out(line(connectionView(connection)));
    }
    case "delete": {
      if (more.length !== 1) throw new UserError(USAGE);
      const vendor = vendorOf(more[0]);
      await deleteConnection(db, organizationId, vendor, change);
      return out(`removed the ${vendor} connection of ${organizationId} and its credential`);
    }
    default:
      throw new UserError(USAGE);
  }
}
