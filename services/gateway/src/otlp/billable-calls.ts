import type { OrganizationOtelSettings } from "@usage-ingestion/organizations";
import type { DecodedSpan } from "./decode.ts";
import { noteWrappers, type RecentCalls } from "./one-call-once.ts";
import { type SpanVerdict, spanToTransaction } from "./span-to-transaction.ts";

export type CallVerdict = Exclude<SpanVerdict, { kind: "ignored" }>;

/**
 * The model calls of one export to bill or to reject, each once: a model-call span known to wrap another
 * model-call span (in this export or an earlier one) is neither billed nor rejected, since its call is
 * billed from the inner span; a span whose wrapper was billed first takes the wrapper's transaction id.
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
  noteWrappers(recent, organization, spans, new Set(verdicts.keys()));
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
