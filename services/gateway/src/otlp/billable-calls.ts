import type { OrganizationOtelSettings } from "@usage-ingestion/organizations";
import type { DecodedSpan } from "./decode.ts";
import { type CallPairing, type PairingCall, wrappersInExport } from "./one-call-once.ts";
import { type SpanVerdict, spanToTransaction } from "./span-to-transaction.ts";

export type CallVerdict = Exclude<SpanVerdict, { kind: "ignored" }>;

/** A model-call span of one export, read. */
export interface ReadCall extends PairingCall {
  verdict: CallVerdict;
}

/**
 * The model-call spans of one export, each read as its transaction or the reason it cannot be one. An
 * inner span that lacks counts its only wrapper in the export has (cache, reasoning, modalities), for the
 * same input and output, is read with them.
 */
export function readCalls(spans: readonly DecodedSpan[], settings: OrganizationOtelSettings): ReadCall[] {
  const verdicts = new Map<DecodedSpan, CallVerdict>();
  for (const span of spans) {
    const verdict = spanToTransaction(span, settings);
    if (verdict.kind !== "ignored") verdicts.set(span, verdict);
  }
  const { wrappers, nearest } = wrappersInExport(spans, new Set(verdicts.keys()));
  // A wrapper around one call only is another report of it: the call may take the parts it lacks from it.
  const wrapped = new Map<DecodedSpan, number>();
  for (const wrapper of nearest.values()) wrapped.set(wrapper, (wrapped.get(wrapper) ?? 0) + 1);
  for (const [span, wrapper] of nearest) {
    if (wrapped.get(wrapper) === 1 && verdicts.get(span)?.kind === "transaction") {
      verdicts.set(span, spanToTransaction(span, settings, wrapper) as CallVerdict);
    }
  }
  return [...verdicts].map(([span, verdict]) => ({
    span,
    verdict,
    wrapsInExport: wrappers.has(span),
    ...(verdict.kind === "transaction" ? { ownId: String(verdict.transaction.transaction_id) } : {}),
  }));
}

/**
 * The calls to bill or to reject, each once: a model-call span known to wrap another model-call span (in
 * this export or an earlier one, on any instance the pairing spans) is neither billed nor rejected, since
 * its call is billed from the inner span; a span whose wrapper was billed first takes the wrapper's id.
 */
export async function billableCalls(
  calls: readonly ReadCall[],
  organization: string,
  pairing: CallPairing,
): Promise<Array<{ span: DecodedSpan; verdict: CallVerdict }>> {
  const decisions = await pairing.decide(organization, calls);
  const billed: Array<{ span: DecodedSpan; verdict: CallVerdict }> = [];
  calls.forEach(({ span, verdict }, index) => {
    const decision = decisions[index];
    if (decision === undefined || decision.wrapper) return;
    if (verdict.kind === "rejected") billed.push({ span, verdict });
    else
      billed.push({
        span,
        verdict: {
          kind: "transaction",
          transaction: { ...verdict.transaction, transaction_id: decision.transactionId },
        },
      });
  });
  return billed;
}
