import { signedTokens } from "@usage-ingestion/shared/server";

/**
 * The page tokens of `GET /usage/records`, signed (`signedTokens`) so the service only ever continues from a
 * place it handed out itself (docs/decisions/0023-records-paging-on-a-snapshot.md). A token names the
 * snapshot the listing reads (a Firestore read time), the range resolved on its first page and the last
 * record answered. The signature also covers the organization and the filters it was made for.
 */

export {
  DEVELOPMENT_PAGE_TOKEN_KEY,
  MAX_PAGE_TOKEN_LENGTH,
  MIN_PAGE_TOKEN_KEY_BYTES,
  PageTokenKeyError,
} from "@usage-ingestion/shared/server";

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
  const tokens = signedTokens(key, CONTEXT);
  return {
    sign(binding, { readTime, from, to, after }) {
      const payload = [VERSION, readTime.seconds, readTime.nanoseconds, from.getTime(), to.getTime()];
      return tokens.sign([binding.organizationId, binding.filters], [...payload, after.receivedAt, after.messageId]);
    },
    read(binding, token) {
      const payload = tokens.read([binding.organizationId, binding.filters], token);
      return payload === null ? null : positionOf(payload);
    },
  };
}
