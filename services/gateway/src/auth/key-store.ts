import type { Firestore } from "@google-cloud/firestore";
import { type ApiKeyDocument, COLLECTIONS, type OrganizationDocument } from "@usage-ingestion/shared";

/** Resolves a key's hash to its organization when both the key and the organization are active. */
export interface KeyStore {
  findActiveOrganization(keyHash: string): Promise<string | null>;
}

export function firestoreKeyStore(db: Firestore): KeyStore {
  return {
    async findActiveOrganization(keyHash) {
      const keySnap = await db.collection(COLLECTIONS.apiKeys).doc(keyHash).get();
      const key = keySnap.data() as ApiKeyDocument | undefined;
      if (key?.status !== "active" || !key.organization_id) return null;
      const orgSnap = await db.collection(COLLECTIONS.organizations).doc(key.organization_id).get();
      const org = orgSnap.data() as OrganizationDocument | undefined;
      return org?.status === "active" ? key.organization_id : null;
    },
  };
}
