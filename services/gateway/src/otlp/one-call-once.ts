import type { DecodedSpan } from "./decode.ts";

/**
 * One call, billed once: when two instrumentations report one model call (OpenLLMetry's or OpenInference's
 * span around the vendor SDK's own span for the same call), the outer span is a model-call span with a
 * model-call descendant. The descendant is billed (it is the SDK's, with the response id); the outer is
 * not. Decided per organization, whatever order the two spans' exports arrive in (decisions/0029):
 * - in one export, the outer span is known by walking each model call's ancestors;
 * - across exports, this instance remembers for a while which spans have a model-call child, and which
 *   were billed under their own id before their child came: the child then takes that id, so the worker's
 *   exactly-once store bills the pair once.
 * Each span's decision is kept, so an exporter's resend of either is decided the same way.
 */
export type CallDecision = { bill: false } | { bill: true; transactionId: string };

export interface RecentCalls {
  /** Notes that the model-call span `spanId` of trace `traceId` has a model-call descendant. */
  noteWrapper(organization: string, traceId: string, spanId: string): void;
  /** Whether the span is known to have a model-call descendant. */
  isWrapper(organization: string, span: DecodedSpan): boolean;
  /** How to bill a model-call span whose own transaction id is `ownId` (its descendants noted first). */
  decide(organization: string, span: DecodedSpan, ownId: string): CallDecision;
}

export interface RecentCallsOptions {
  /** Entries kept in each of the three maps; the oldest go first. */
  maxEntries?: number;
  /** How long a span is remembered: longer than an exporter's batching and retries take. */
  ttlMs?: number;
  now?: () => number;
}

/** About 200 bytes an entry: at most some 60 MB for the three maps together. */
export const RECENT_CALLS_MAX_ENTRIES = 100_000;
export const RECENT_CALLS_TTL_MS = 15 * 60_000;

/** A map whose entries expire after `ttlMs` and whose oldest entry goes when it holds `max`. */
function expiringMap<V>(max: number, ttlMs: number, now: () => number) {
  const entries = new Map<string, { value: V; at: number }>();
  return {
    get(key: string): V | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (now() - entry.at > ttlMs) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(key: string, value: V) {
      entries.delete(key);
      if (entries.size >= max) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(key, { value, at: now() });
    },
    delete(key: string) {
      entries.delete(key);
    },
  };
}

export function recentCalls(options: RecentCallsOptions = {}): RecentCalls {
  const max = options.maxEntries ?? RECENT_CALLS_MAX_ENTRIES;
  const ttl = options.ttlMs ?? RECENT_CALLS_TTL_MS;
  const now = options.now ?? Date.now;
  const wrappers = expiringMap<true>(max, ttl, now);
  /** Spans billed under their own id that no child has taken the id of yet. */
  const billedOwn = expiringMap<string>(max, ttl, now);
  const decisions = expiringMap<CallDecision>(max, ttl, now);
  const key = (organization: string, traceId: string, spanId: string) => `${organization}/${traceId}/${spanId}`;

  return {
    noteWrapper(organization, traceId, spanId) {
      if (spanId !== "") wrappers.set(key(organization, traceId, spanId), true);
    },
    isWrapper(organization, span) {
      return wrappers.get(key(organization, span.traceId, span.spanId)) === true;
    },
    decide(organization, span, ownId) {
      const self = key(organization, span.traceId, span.spanId);
      const known = decisions.get(self);
      if (known) return known;
      let decision: CallDecision;
      const parent = span.parentSpanId === "" ? undefined : key(organization, span.traceId, span.parentSpanId);
      const parentsId = parent === undefined ? undefined : billedOwn.get(parent);
      if (wrappers.get(self)) decision = { bill: false };
      else if (parent !== undefined && parentsId !== undefined) {
        // The parent came first and was billed: this call takes its id, once.
        billedOwn.delete(parent);
        decision = { bill: true, transactionId: parentsId };
      } else {
        decision = { bill: true, transactionId: ownId };
        billedOwn.set(self, ownId);
      }
      decisions.set(self, decision);
      return decision;
    },
  };
}

/** How far up the walk from a model call to its ancestors goes within one export. */
const MAX_ANCESTRY = 64;

/**
 * Notes, for the model-call spans `calls` of one export, every model call each descends from within the
 * export (through spans of any kind), and each one's parent whatever it is (for exports to come).
 * Returns each call's nearest model-call ancestor in the export, for those that have one.
 */
export function noteWrappers(
  recent: RecentCalls,
  organization: string,
  spans: readonly DecodedSpan[],
  calls: ReadonlySet<DecodedSpan>,
): Map<DecodedSpan, DecodedSpan> {
  const byId = new Map(spans.map((span) => [`${span.traceId}/${span.spanId}`, span]));
  const nearest = new Map<DecodedSpan, DecodedSpan>();
  for (const call of calls) {
    recent.noteWrapper(organization, call.traceId, call.parentSpanId);
    let parent = byId.get(`${call.traceId}/${call.parentSpanId}`);
    for (let depth = 0; parent !== undefined && depth < MAX_ANCESTRY; depth++) {
      if (calls.has(parent)) {
        recent.noteWrapper(organization, parent.traceId, parent.spanId);
        if (!nearest.has(call)) nearest.set(call, parent);
      }
      parent = byId.get(`${parent.traceId}/${parent.parentSpanId}`);
    }
  }
  return nearest;
}
