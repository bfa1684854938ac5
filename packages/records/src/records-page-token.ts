import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The page tokens of `GET /usage/records`, signed with HMAC-SHA256 so the service only ever continues from a
 * place it handed out itself (docs/decisions/0023-records-paging-on-a-snapshot.md). A token names the
 * snapshot the listing reads (a Firestore read time), the range resolved on its first page and the last
 * record answered. The signature also covers the organization and the filters it was made for, so a token
 * of another organization or of other filters is refused like a forged one; neither is written in the
 * token itself.
 */

/**
 * The key `npm start` and the tests sign with. It is public, so a deployment sets its own
 * (`PAGE_TOKEN_KEY`, from Secret Manager in Terraform): with this one anyone could forge a position, though
 * only in their own organization's records, which their key reads anyway.
 */
export const DEVELOPMENT_PAGE_TOKEN_KEY = "usage-ingestion local development key for records page tokens";
/** HMAC-SHA256 keys shorter than its 32-byte output make forging easier than it has to be. */
export const MIN_PAGE_TOKEN_KEY_BYTES = 32;
/** Longer than any token this service writes (the largest message id and instant fit many times over). */
export const MAX_PAGE_TOKEN_LENGTH = 2_048;

const VERSION = 1;
const CONTEXT = "usage-records-page-token";
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/** A Firestore read time, as the client's Timestamp holds it. */
export interface ReadTime {
  seconds: number;
  nanoseconds: number;
}

/** Where a listing stands: its snapshot, its range, and the last record a page answered. */
export interface RecordsPosition {
  readTime: ReadTime;
  from: Date;
  to: Date;
  after: { receivedAt: string; messageId: string };
}

/** What a token is good for and is checked against: the caller's organization and the listing's filters. */
export interface TokenBinding {
  organizationId: string;
  /** The filters, as `recordsFingerprint` writes them. */
  filters: string;
}

export interface PageTokens {
  sign(binding: TokenBinding, position: RecordsPosition): string;
  /** The position a token stands for, or null when it is malformed, forged, or made for another binding. */
  read(binding: TokenBinding, token: string): RecordsPosition | null;
}

export class PageTokenKeyError extends Error {
  override name = "PageTokenKeyError";
}

const isCount = (value: unknown, max = Number.MAX_SAFE_INTEGER): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0 && value <= max;

/** The payload's own fields, each checked: a token that verifies was still written by us, but never trust a shape. */
function positionOf(payload: unknown): RecordsPosition | null {
  if (!Array.isArray(payload) || payload.length !== 7 || payload[0] !== VERSION) return null;
  const [, seconds, nanoseconds, from, to, receivedAt, messageId] = payload;
  if (!isCount(seconds) || !isCount(nanoseconds, 999_999_999) || !isCount(from) || !isCount(to)) return null;
  if (typeof receivedAt !== "string" || !INSTANT.test(receivedAt)) return null;
  if (typeof messageId !== "string" || messageId === "") return null;
  return {
    readTime: { seconds, nanoseconds },
    from: new Date(from),
    to: new Date(to),
    after: { receivedAt, messageId },
  };
}

export function pageTokens(key: string): PageTokens {
  if (Buffer.byteLength(key) < MIN_PAGE_TOKEN_KEY_BYTES) {
    // The key itself is never part of the message: this may be logged.
    throw new PageTokenKeyError(`the page token key must be at least ${MIN_PAGE_TOKEN_KEY_BYTES} bytes`);
  }
  const mac = (binding: TokenBinding, payload: string) =>
    createHmac("sha256", key)
      .update(JSON.stringify([CONTEXT, binding.organizationId, binding.filters, payload]))
      .digest();
  return {
    sign(binding, { readTime, from, to, after }) {
      const payload = Buffer.from(
        JSON.stringify([
          VERSION,
          readTime.seconds,
          readTime.nanoseconds,
          from.getTime(),
          to.getTime(),
          after.receivedAt,
          after.messageId,
        ]),
      ).toString("base64url");
      return `${payload}.${mac(binding, payload).toString("base64url")}`;
    },
    read(binding, token) {
      if (token.length > MAX_PAGE_TOKEN_LENGTH) return null;
      const parts = token.split(".");
      if (parts.length !== 2) return null;
      const [payload, signature] = parts as [string, string];
      if (!/^[A-Za-z0-9_-]+$/.test(payload) || !/^[A-Za-z0-9_-]{43}$/.test(signature)) return null;
      const expected = mac(binding, payload);
      const given = Buffer.from(signature, "base64url");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      try {
        return positionOf(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
      } catch {
        return null;
      }
    },
  };
}
