import type { OrganizationLimits } from "@usage-ingestion/organizations";
import { type ErrorReply, rateLimited } from "@usage-ingestion/shared";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { fixedWindow, type WindowCount, withBurst } from "./fixed-window.ts";

/** One limit's numbers: transactions a second with a burst over BURST_WINDOW_SECONDS, and reports a minute. */
export interface LimitSettings {
  ingestPerSecond: number;
  ingestBurst: number;
  reportsPerMinute: number;
}

export interface RateLimitConfig {
  /** Every key of an organization together; an organization's own limits (its document) win. */
  organization: LimitSettings;
  /** Each key alone. */
  key: LimitSettings;
  /** Look-ups of keys that turn out unknown, per client address, a minute. */
  unknownKeysPerMinute: number;
}

/** The window a burst is spread over: a client may send `ingestBurst` more transactions in it. */
export const BURST_WINDOW_SECONDS = 10;

export type Verdict = { ok: true; headers: Record<string, string> } | { ok: false; reply: ErrorReply };

interface Limiter {
  consume(key: string, points: number): WindowCount;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** A limiter's answer as headers (IETF draft RateLimit fields). */
function headersOf(res: { remainingPoints: number; msBeforeNext: number }, limit: number): Record<string, string> {
  return {
    "RateLimit-Limit": String(limit),
    "RateLimit-Remaining": String(Math.max(0, res.remainingPoints)),
    "RateLimit-Reset": String(seconds(res.msBeforeNext)),
  };
}

/**
 * The gateway's rate limits, held in this instance's memory (fixed windows counted as rate-limiter-flexible
 * counts, synchronously; the unknown keys' limit on rate-limiter-flexible itself): no shared store, so
 * with N instances an organization may reach N times a limit before Cloud Armor's per-client rules (in
 * front of the service) take over. Limiters are made once per distinct limit and kept, so an
 * organization's own limits take effect as soon as its key is read again.
 */
export function rateLimits(config: RateLimitConfig) {
  const limiters = new Map<string, Limiter>();
  const limiter = (name: string, points: number, duration: number, burst = 0): Limiter => {
    const id = `${name}:${points}:${duration}:${burst}`;
    let found = limiters.get(id);
    if (!found) {
      const steady = fixedWindow(points, duration * 1000);
      found = burst > 0 ? withBurst(steady, fixedWindow(burst, BURST_WINDOW_SECONDS * 1000)) : steady;
      limiters.set(id, found);
    }
    return found;
  };

  /**
   * Consumes from both limiters (the organization's, then the key's); refused when either refuses (the
   * organization's first), else the headers of the one with least room left (the organization's on a tie).
   */
  function consumeBoth(org: Part, orgKey: string, key: Part, keyKey: string, points: number): Verdict {
    const orgCount = org.limiter.consume(orgKey, points);
    const keyCount = key.limiter.consume(keyKey, points);
    const refused = orgCount.refused ? org : keyCount.refused ? key : undefined;
    if (refused) {
      const count = refused === org ? orgCount : keyCount;
      const message = `Rate limit reached: ${refused.what}. Nothing was queued; retry after the Retry-After seconds.`;
      return { ok: false, reply: rateLimited(message, seconds(count.msBeforeNext), headersOf(count, refused.limit)) };
    }
    return keyCount.remainingPoints < orgCount.remainingPoints
      ? { ok: true, headers: headersOf(keyCount, key.limit) }
      : { ok: true, headers: headersOf(orgCount, org.limit) };
  }

  const own = (limits: OrganizationLimits | undefined): LimitSettings => ({
    ingestPerSecond: limits?.ingest_transactions_per_second ?? config.organization.ingestPerSecond,
    ingestBurst: limits?.ingest_burst_transactions ?? config.organization.ingestBurst,
    reportsPerMinute: limits?.reports_per_minute ?? config.organization.reportsPerMinute,
  });
  const unknownKeys = new RateLimiterMemory({
    keyPrefix: "unknown-keys",
    points: config.unknownKeysPerMinute,
    duration: 60,
  });

  /** An organization's and a key's limiters, with their figures and words, made once per distinct limits. */
  interface Plan {
    ingest: [Part, Part];
    reports: [Part, Part];
  }
  type Part = { limiter: Limiter; limit: number; what: string };
  const planOf = (limits: OrganizationLimits | undefined): Plan => {
    const org = own(limits);
    const { key } = config;
    return {
      ingest: [
        {
          limiter: limiter("ingest-org", org.ingestPerSecond, 1, org.ingestBurst),
          limit: org.ingestPerSecond,
          what: `${org.ingestPerSecond} transactions a second (burst ${org.ingestBurst}) for the organization`,
        },
        {
          limiter: limiter("ingest-key", key.ingestPerSecond, 1, key.ingestBurst),
          limit: key.ingestPerSecond,
          what: `${key.ingestPerSecond} transactions a second (burst ${key.ingestBurst}) for the key`,
        },
      ],
      reports: [
        {
          limiter: limiter("reports-org", org.reportsPerMinute, 60),
          limit: org.reportsPerMinute,
          what: `${org.reportsPerMinute} report requests a minute for the organization`,
        },
        {
          limiter: limiter("reports-key", key.reportsPerMinute, 60),
          limit: key.reportsPerMinute,
          what: `${key.reportsPerMinute} report requests a minute for the key`,
        },
      ],
    };
  };
  // Keyed by the limits object an organization's cached key holds (a new one when the key is read again),
  // so nothing is formatted or looked up per request.
  const plans = new WeakMap<OrganizationLimits, Plan>();
  const defaults = planOf(undefined);
  const plan = (limits: OrganizationLimits | undefined): Plan => {
    if (!limits) return defaults;
    let found = plans.get(limits);
    if (!found) {
      found = planOf(limits);
      plans.set(limits, found);
    }
    return found;
  };

  return {
    /** `transactions` more for the key and its organization, at their rates with their bursts. */
    ingest(organizationId: string, limits: OrganizationLimits | undefined, keyHash: string, transactions: number) {
      const [org, key] = plan(limits).ingest;
      return consumeBoth(org, organizationId, key, keyHash, transactions);
    },
    /** One more report request for the key and its organization. */
    reports(organizationId: string, limits: OrganizationLimits | undefined, keyHash: string) {
      const [org, key] = plan(limits).reports;
      return consumeBoth(org, organizationId, key, keyHash, 1);
    },
    /** Whether this address has looked up its share of unknown keys this minute, and until when. */
    async unknownKeysExhausted(address: string): Promise<ErrorReply | null> {
      const res = await unknownKeys.get(address);
      if (!res || res.remainingPoints > 0) return null;
      const message = `Too many requests with unknown API keys from this address: at most ${config.unknownKeysPerMinute} a minute.`;
      return rateLimited(message, seconds(res.msBeforeNext), headersOf(res, config.unknownKeysPerMinute));
    },
    /** Counts a look-up that found no active key. */
    async unknownKey(address: string): Promise<void> {
      await unknownKeys.consume(address, 1).catch((res: unknown) => {
        if (res instanceof Error) throw res;
      });
    },
  };
}

export type RateLimits = ReturnType<typeof rateLimits>;
