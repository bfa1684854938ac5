/** Firestore layout shared by the gateway, the worker and the admin command line. */
export const COLLECTIONS = {
  apiKeys: "api_keys",
  organizations: "organizations",
  transactions: "transactions",
  rejectedMessages: "rejected_messages",
  customPricing: "custom_pricing",
} as const;

/** Document paths, for `firestore.doc(path)`: the only place they are spelled out. */
export const DOCUMENT_PATHS = {
  transactions: (organizationId: string) =>
    `${COLLECTIONS.organizations}/${organizationId}/${COLLECTIONS.transactions}`,
  transaction: (organizationId: string, messageId: string) =>
    `${DOCUMENT_PATHS.transactions(organizationId)}/${messageId}`,
  rejectedMessage: (messageId: string) => `${COLLECTIONS.rejectedMessages}/${messageId}`,
  customPricing: (organizationId: string) => `${COLLECTIONS.customPricing}/${organizationId}`,
  organization: (organizationId: string) => `${COLLECTIONS.organizations}/${organizationId}`,
  apiKey: (keyHash: string) => `${COLLECTIONS.apiKeys}/${keyHash}`,
};

export type Status = "active" | "disabled";

export interface ApiKeyDocument {
  organization_id: string;
  prefix: string;
  status: Status;
  created_at: string;
}

export interface OrganizationDocument {
  name: string;
  status: Status;
  created_at: string;
}
