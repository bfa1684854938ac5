import type { ConnectionVendor } from "./vendors.ts";

/** `organizations/{org}/connections/{vendor}`: one vendor's connection, its credential sealed. */
export interface ConnectionDocument {
  vendor: ConnectionVendor;
  status: "active";
  created_at: string;
  updated_at: string;
  /** The last reconciliation run that read this vendor, and what went wrong in it (null when it went well). */
  last_run_at: string | null;
  last_error: string | null;
  /** The vendor's grouping ids mapped to declared context dimensions (`{ project_id: "team" }`). */
  mappings: Record<string, string>;
  /** The credential sealed with the deployment's secret key; never answered, never logged. */
  credential: { encrypted: string };
}

/** A connection as every interface shows it: everything but the credential. */
export type ConnectionView = Omit<ConnectionDocument, "credential">;

export function connectionView(connection: ConnectionDocument): ConnectionView {
  const { credential: _credential, ...view } = connection;
  return view;
}

/** What a sealed credential is bound to: one organization's connection to one vendor. */
export const credentialContext = (organizationId: string, vendor: ConnectionVendor) =>
  `connections/${organizationId}/${vendor}`;
