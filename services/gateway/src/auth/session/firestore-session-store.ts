import { createHash } from "node:crypto";
import { type Firestore, Timestamp } from "@google-cloud/firestore";
import session from "express-session";

/**
 * express-session's store on Firestore (`sessions/{sha256(id)}`), so every gateway instance sees the same
 * sessions and logout ends one everywhere. `@google-cloud/connect-firestore` would be the packaged choice,
 * but it asks for @google-cloud/firestore 7 where the project runs 9 (docs/decisions/0025). The id is
 * stored hashed: reading the database gives no cookie that works. `expires_at` lets a Firestore TTL policy
 * delete what has expired (infra/); until it does, an expired document is treated as absent.
 */
export class FirestoreSessionStore extends session.Store {
  constructor(
    private readonly db: Firestore,
    private readonly collection = "sessions",
  ) {
    super();
  }

  private ref(id: string) {
    return this.db.collection(this.collection).doc(createHash("sha256").update(id).digest("hex"));
  }

  private static expiresAt(data: session.SessionData): Timestamp {
    const expires = data.cookie?.expires ? new Date(data.cookie.expires) : new Date(Date.now() + 86_400_000);
    return Timestamp.fromDate(expires);
  }

  override get(id: string, callback: (error: unknown, data?: session.SessionData | null) => void): void {
    this.ref(id)
      .get()
      .then((snap) => {
        const stored = snap.data() as { data: string; expires_at: Timestamp } | undefined;
        if (!stored || stored.expires_at.toMillis() <= Date.now()) return callback(null, null);
        callback(null, JSON.parse(stored.data) as session.SessionData);
      }, callback);
  }

  override set(id: string, data: session.SessionData, callback?: (error?: unknown) => void): void {
    this.ref(id)
      .set({ data: JSON.stringify(data), expires_at: FirestoreSessionStore.expiresAt(data) })
      .then(() => callback?.(), callback);
  }

  override destroy(id: string, callback?: (error?: unknown) => void): void {
    this.ref(id)
      .delete()
      .then(() => callback?.(), callback);
  }

  override touch(id: string, data: session.SessionData, callback?: (error?: unknown) => void): void {
    this.ref(id)
      .update({ expires_at: FirestoreSessionStore.expiresAt(data) })
      .then(
        () => callback?.(),
        // A session destroyed meanwhile has nothing to touch.
        () => callback?.(),
      );
  }
}
