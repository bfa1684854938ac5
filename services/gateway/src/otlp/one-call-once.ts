import type { DecodedSpan } from "./decode.ts";

/**
 * One call, billed once: when two instrumentations report one model call (OpenLLMetry's or OpenInference's
 * span around the vendor SDK's own span for the same call), the outer span is a model-call span with a
 * model-call descendant. The descendant is billed (it is the SDK's, with the response id); the outer is
 * not. Decided per organization, whatever order the two spans' exports arrive in and whichever instances
 * they reach (decisions/0029, 0034):
 * - in one export, the outer span is known by walking each model call's ancestors;
 * - across exports, a store of slots (one per span) keeps which spans have a model-call child, and which
 *   were billed under their own id before their child came: the child then takes that id, so the worker's
 *   exactly-once store bills the pair once.
 * Each span's decision is kept, so an exporter's resend of either is decided the same way.
 */

/** A model-call span is a wrapper (neither billed nor reported), or a call billed under `transactionId`. */
export type CallDecision = { wrapper: true } | { wrapper: false; transactionId: string };

/** A model-call span of one export, as the pairing sees it. */
export interface PairingCall {
  span: DecodedSpan;
  /** Its own transaction id; absent for a span whose counts cannot be read (reported, never billed). */
  ownId?: string;
  /** Whether a model-call span of the same export descends from it. */
  wrapsInExport: boolean;
}

/** What is known of one span of a trace, whichever export told it. */
export interface SpanSlot {
  /** A model-call span descends from it. */
  wrapped?: true;
  /** It was billed under its own id, and no child has taken that id yet. */
  untakenId?: string;
  /** The decision taken for it, kept so that a resend is decided alike. */
  decision?: CallDecision;
}

/** Decides the model calls of one export for an organization, recording what later exports need. */
export interface CallPairing {
  decide(organization: string, calls: readonly PairingCall[]): Promise<CallDecision[]>;
}

const WRAPPER: CallDecision = { wrapper: true };

export const slotKey = (traceId: string, spanId: string) => `${traceId}/${spanId}`;

/** The slots deciding `calls` reads: each call's own and its parent's. */
export function slotKeys(calls: readonly PairingCall[]): string[] {
  const keys = new Set<string>();
  for (const { span } of calls) {
    keys.add(slotKey(span.traceId, span.spanId));
    if (span.parentSpanId !== "") keys.add(slotKey(span.traceId, span.parentSpanId));
  }
  return [...keys];
}

/**
 * The rule, on slots read from wherever they are kept (`slotKeys` of the calls): changes them in place and
 * returns each call's decision and the keys of the slots it changed. A call that is only reported (no
 * `ownId`) gets an empty transaction id unless it is a wrapper, and no decision is kept for it.
 */
export function decideCalls(
  slots: Map<string, SpanSlot>,
  calls: readonly PairingCall[],
): { decisions: CallDecision[]; changed: Set<string> } {
  const changed = new Set<string>();
  const slotOf = (key: string) => {
    const slot = slots.get(key) ?? {};
    slots.set(key, slot);
    return slot;
  };
  const markWrapped = (key: string) => {
    const slot = slotOf(key);
    if (slot.wrapped) return;
    slot.wrapped = true;
    changed.add(key);
  };
  for (const { span, wrapsInExport } of calls) {
    if (span.parentSpanId !== "") markWrapped(slotKey(span.traceId, span.parentSpanId));
    if (wrapsInExport) markWrapped(slotKey(span.traceId, span.spanId));
  }
  const decisions = calls.map(({ span, ownId }): CallDecision => {
    const key = slotKey(span.traceId, span.spanId);
    const own = slotOf(key);
    if (ownId === undefined) return own.wrapped ? WRAPPER : { wrapper: false, transactionId: "" };
    if (own.decision) return own.decision;
    const parentKey = span.parentSpanId === "" ? undefined : slotKey(span.traceId, span.parentSpanId);
    const parent = parentKey === undefined ? undefined : slots.get(parentKey);
    let decision: CallDecision;
    if (own.wrapped) decision = WRAPPER;
    else if (parentKey !== undefined && parent?.untakenId !== undefined) {
      // The parent came first and was billed: this call takes its id, once.
      decision = { wrapper: false, transactionId: parent.untakenId };
      delete parent.untakenId;
      changed.add(parentKey);
    } else {
      decision = { wrapper: false, transactionId: ownId };
      own.untakenId = ownId;
    }
    own.decision = decision;
    changed.add(key);
    return decision;
  });
  return { decisions, changed };
}

/** How far up the walk from a model call to its ancestors goes within one export. */
const MAX_ANCESTRY = 64;

/**
 * For the model-call spans `calls` of one export: the calls some other call of the export descends from
 * (through spans of any kind), and each call's nearest model-call ancestor in the export, where it has one.
 */
export function wrappersInExport(
  spans: readonly DecodedSpan[],
  calls: ReadonlySet<DecodedSpan>,
): { wrappers: Set<DecodedSpan>; nearest: Map<DecodedSpan, DecodedSpan> } {
  const byId = new Map(spans.map((span) => [slotKey(span.traceId, span.spanId), span]));
  const wrappers = new Set<DecodedSpan>();
  const nearest = new Map<DecodedSpan, DecodedSpan>();
  for (const call of calls) {
    let parent = byId.get(slotKey(call.traceId, call.parentSpanId));
    for (let depth = 0; parent !== undefined && depth < MAX_ANCESTRY; depth++) {
      if (calls.has(parent)) {
        wrappers.add(parent);
        if (!nearest.has(call)) nearest.set(call, parent);
      }
      parent = byId.get(slotKey(parent.traceId, parent.parentSpanId));
    }
  }
  return { wrappers, nearest };
}
