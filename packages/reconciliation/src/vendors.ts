/**
 * The vendors whose own usage and cost reports an organization can connect (docs/reconciliation.md), what
 * each one's credential is, and which of the vendor's grouping ids can be mapped to a context dimension.
 */
export const CONNECTION_VENDORS = ["openai", "anthropic", "gemini", "bedrock"] as const;
export type ConnectionVendor = (typeof CONNECTION_VENDORS)[number];

export const isConnectionVendor = (text: string): text is ConnectionVendor =>
  (CONNECTION_VENDORS as readonly string[]).includes(text);

interface VendorRules {
  /** What the credential is, for messages and docs. */
  credential: string;
  /** The credential's form; a credential that does not match is refused before it is stored. */
  form: RegExp;
  /** The vendor's grouping ids that a mapping may name (each to one declared context dimension). */
  mappable: readonly string[];
  /**
   * The one of them a reconciliation is split by, when it is mapped: the id both the vendor's usage and its
   * cost report are grouped by (decision 0033). The others are kept on the connection but split nothing:
   * the cost reports are not grouped by key, so rows split by key could not carry the vendor's cost.
   */
  splitBy: string;
}

export const VENDOR_RULES: Record<ConnectionVendor, VendorRules> = {
  // OpenAI's Usage and Costs APIs take an organization admin key (`sk-admin-...`).
  openai: {
    credential: "an OpenAI admin key (sk-admin-...)",
    form: /^sk-admin-[A-Za-z0-9_-]{8,}$/,
    mappable: ["project_id", "api_key_id"],
    splitBy: "project_id",
  },
  // Anthropic's usage and cost reports take an Admin API key (`sk-ant-admin...`).
  anthropic: {
    credential: "an Anthropic Admin API key (sk-ant-admin...)",
    form: /^sk-ant-admin[A-Za-z0-9_-]{8,}$/,
    mappable: ["workspace_id", "api_key_id"],
    splitBy: "workspace_id",
  },
  // Google bills Gemini and Vertex AI through the Cloud Billing export: its BigQuery table is the credential.
  gemini: {
    credential: "the Cloud Billing export's BigQuery table (project.dataset.table)",
    form: /^[a-z][a-z0-9-]{4,28}[a-z0-9]\.[A-Za-z0-9_]{1,1024}\.[A-Za-z0-9_$-]{1,1024}$/,
    mappable: ["project_id"],
    splitBy: "project_id",
  },
  // Cost Explorer, through a role to assume or an access key pair (`<access key id>:<secret access key>`).
  bedrock: {
    credential: "an IAM role ARN to assume, or <access key id>:<secret access key>",
    form: /^(?:arn:aws:iam::\d{12}:role\/[\w+=,.@/-]{1,512}|(?:AKIA|ASIA)[A-Z0-9]{16}:[A-Za-z0-9/+=]{40})$/,
    mappable: ["account_id"],
    splitBy: "account_id",
  },
};

/** The longest credential stored: far above any vendor's key or a role ARN. */
export const MAX_CREDENTIAL_LENGTH = 2048;
