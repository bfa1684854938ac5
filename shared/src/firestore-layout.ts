/** Firestore layout shared by the gateway, the worker and the admin command line. */
export const COLLECTIONS = {
  apiKeys: "api_keys",
  organizations: "organizations",
  transactions: "transactions",
  rejectedMessages: "rejected_messages",
  customPricing: "custom_pricing",
} as const;

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
