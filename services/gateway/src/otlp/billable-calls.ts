import type { OrganizationOtelSettings } from "@usage-ingestion/organizations";
import type { DecodedSpan } from "./decode.ts";
import { noteWrappers, type RecentCalls } from "./one-call-once.ts";
import { type SpanVerdict, spanToTransaction } from "./span-to-transaction.ts";

export type CallVerdict = Exclude<SpanVerdict, { kind: "ignored" }>;

/**
 * The model calls of one export to bill or to reject, each once: a model-call span known to wrap another
 * model-call span (in this export or an earlier one) is neither billed nor rejected, since its call is
 * billed from the inner span; a span whose wrapper was billed first takes the wrapper's transaction id.
 * An inner span that lacks counts its only wrapper in the export has (cache, reasoning, modalities), for
 * the same input and output, is billed with them.
 */
export function billableCalls(
  spans: readonly DecodedSpan[],
  settings: OrganizationOtelSettings,
  organization: string,
  recent: RecentCalls,
): Array<{ span: DecodedSpan; verdict: CallVerdict }> {
  const verdicts = new Map<DecodedSpan, CallVerdict>();
  for (const span of spans) {
    const verdict = spanToTransaction(span, settings);
    if (verdict.kind !== "ignored") verdicts.set(span, verdict);
  }
  const wrapperOf = noteWrappers(recent, organization, spans, new Set(verdicts.keys()));
  // A wrapper around one call only is another report of it: the call may take the parts it lacks from it.
  const wrapped = new Map<DecodedSpan, number>();
  for (const wrapper of wrapperOf.values()) wrapped.set(wrapper, (wrapped.get(wrapper) ?? 0) + 1);
  for (const [span, wrapper] of wrapperOf) {
    if (wrapped.get(wrapper) === 1 && verdicts.get(span)?.kind === "transaction") {
      verdicts.set(span, spanToTransaction(span, settings, wrapper) as CallVerdict);
    }
  }
  const calls: Array<{ span: DecodedSpan; verdict: CallVerdict }> = [];
  for (const [span, verdict] of verdicts) {
    if (verdict.kind === "rejected") {
      if (!recent.isWrapper(organization, span)) calls.push({ span, verdict });
      continue;
    }
    const decision = recent.decide(organization, span, String(verdict.transaction.transaction_id));
    if (!decision.bill) continue;
    const transaction = { ...verdict.transaction, transaction_id: decision.transactionId };
    calls.push({ span, verdict: { kind: "transaction", transaction } });
  }
  return calls;
}
