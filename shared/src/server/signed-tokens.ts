import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Page tokens the service signs, so that it only ever continues from a place it handed out itself: the
 * listing of records and the cost report both use this one mechanism, each under its own context name
 * (docs/decisions/0023-records-paging-on-a-snapshot.md). A token is `payload.signature`: the payload a JSON
 * array in base64url, the signature HMAC-SHA256 over the context, the binding and the payload. The binding
 * (the organization, the query it was made for) is signed but never written in the token, so a token of
 * another organization or another query is refused like a forged one.
 */

/**
 * The key `npm start` and the tests sign with. It is public, so a deployment sets its own
 * (`PAGE_TOKEN_KEY`, from Secret Manager in Terraform): with this one anyone could forge a position, though
 * only in their own organization's data, which their key reads anyway.
 */
export const DEVELOPMENT_PAGE_TOKEN_KEY = "usage-ingestion local development key for records page tokens";
/** HMAC-SHA256 keys shorter than its 32-byte output make forging easier than it has to be. */
export const MIN_PAGE_TOKEN_KEY_BYTES = 32;
/** Longer than any token this service writes. */
export const MAX_PAGE_TOKEN_LENGTH = 2_048;

export class PageTokenKeyError extends Error {
  override name = "PageTokenKeyError";
}

export interface SignedTokens {
  sign(binding: readonly string[], payload: readonly unknown[]): string;
  /** The payload a token carries, or null when it is malformed, forged, or signed for another binding. */
  read(binding: readonly string[], token: string): unknown[] | null;
}

const PAYLOAD = /^[A-Za-z0-9_-]+$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

export function signedTokens(key: string, context: string): SignedTokens {
  if (Buffer.byteLength(key) < MIN_PAGE_TOKEN_KEY_BYTES) {
    // The key itself is never part of the message: this may be logged.
    throw new PageTokenKeyError(`the page token key must be at least ${MIN_PAGE_TOKEN_KEY_BYTES} bytes`);
  }
  const mac = (binding: readonly string[], payload: string) =>
    createHmac("sha256", key)
      .update(JSON.stringify([context, ...binding, payload]))
      .digest();
  return {
    sign(binding, values) {
      const payload = Buffer.from(JSON.stringify(values)).toString("base64url");
      return `${payload}.${mac(binding, payload).toString("base64url")}`;
    },
    read(binding, token) {
      if (token.length > MAX_PAGE_TOKEN_LENGTH) return null;
      const parts = token.split(".");
      if (parts.length !== 2) return null;
      const [payload, signature] = parts as [string, string];
      if (!PAYLOAD.test(payload) || !SIGNATURE.test(signature)) return null;
      const expected = mac(binding, payload);
      const given = Buffer.from(signature, "base64url");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      try {
        const values: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
        return Array.isArray(values) ? values : null;
      } catch {
        return null;
      }
    },
  };
}
