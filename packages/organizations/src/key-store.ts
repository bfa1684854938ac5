import { COLLECTIONS } from "@usage-ingestion/shared";
import { apiKeyId } from "./api-keys.ts";
import type { Databases } from "./keys-database.ts";
import type {
  ApiKeyDocument,
  KeyScope,
  OrganizationDocument,
  OrganizationLimits,
  OrganizationOtelSettings,
} from "./organization-documents.ts";

/** An active key of an active organization, with what it may do. */
export interface ActiveKey {
  organizationId: string;
  /** The key's public id (apiKeyId): who acted, in the audit log. Absent from hand-made stores in tests. */
  keyId?: string;
  scope: KeyScope;
  /** The organization's declared context dimensions, read with it: ingestion bounds their values. */
  dimensions: readonly string[];
  /** The organization's own rate limits, where it has any. */
  limits?: OrganizationLimits;
  /** Which span attributes hold the customer and the context, for POST /v1/traces. */
  otel?: OrganizationOtelSettings;
}

/** Resolves a key's hash to its organization and scope when both the key and the organization are active. */
export interface KeyStore {
  findActiveKey(keyHash: string): Promise<ActiveKey | null>;
  /** What a cache holds for the key without asking further: undefined when it holds nothing. */
  cached?(keyHash: string): ActiveKey | null | undefined;
}

/** Keys from the keys database, their organizations from the records database. */
export function firestoreKeyStore(db: Databases): KeyStore {
  return {
    async findActiveKey(keyHash) {
      const keySnap = await db.keys.collection(COLLECTIONS.apiKeys).doc(keyHash).get();
      const key = keySnap.data() as ApiKeyDocument | undefined;
      if (key?.status !== "active" || !key.organization_id) return null;
      const orgSnap = await db.records.collection(COLLECTIONS.organizations).doc(key.organization_id).get();
      const org = orgSnap.data() as OrganizationDocument | undefined;
      // Keys made before scopes existed carry none: they are ingest keys.
      if (org?.status !== "active") return null;
      return {
        organizationId: key.organization_id,
        keyId: key.id ?? apiKeyId(keyHash),
        scope: key.scope ?? "ingest",
        dimensions: org.dimensions ?? [],
        ...(org.limits ? { limits: org.limits } : {}),
        ...(org.otel ? { otel: org.otel } : {}),
      };
    },
  };
}
