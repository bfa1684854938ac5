import type { Firestore } from "@google-cloud/firestore";
import { COLLECTIONS } from "@usage-ingestion/shared";
import { delay } from "../../scripts/lib/processes.ts";

/**
 * Load for the failure drills, with costs known by hand. OpenAI https://openai.com/api/pricing/ (the
 * page the pricing tests cite): gpt-4o $2.50 per million input tokens and $10.00 per million output tokens, that is
 * 2,500 and 10,000 nano-USD a token. Transaction `i` has 1,000 + i input and 100 + i output tokens, so it
 * costs 2,500 x (1,000 + i) + 10,000 x (100 + i) = 3,500,000 + 12,500 x i nano-USD.
 */
export const drillTransaction = (i: number) => ({
  provider: "openai",
  model: "gpt-4o",
  usage: [{ type: "tokens", metrics: { input_tokens: 1000 + i, output_tokens: 100 + i, total_tokens: 1100 + 2 * i } }],
  context: { billable_customer_id: `drill-${i % 7}` },
});
export const expectedNanos = (i: number) => 3_500_000 + 12_500 * i;

export interface Accepted {
  messageId: string;
  index: number;
}

/**
 * Sends `requests` bulks of `perRequest` transactions, `concurrency` at a time, numbering transactions
 * from 0; returns the accepted ones (answered with a message id) and the statuses seen. `between` runs
 * after each answered request (the drills pull their trigger from it).
 */
export async function sendLoad(options: {
  baseUrl: string;
  apiKey: string;
  requests: number;
  perRequest: number;
  concurrency: number;
  pauseMs?: number;
  between?: (answered: number) => void | Promise<void>;
}) {
  const accepted: Accepted[] = [];
  const statuses: number[] = [];
  let next = 0;
  let answered = 0;
  const sender = async () => {
    while (next < options.requests) {
      const request = next++;
      const indexes = Array.from({ length: options.perRequest }, (_, k) => request * options.perRequest + k);
      try {
        const response = await fetch(`${options.baseUrl}/usage/transactions`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": options.apiKey },
          body: JSON.stringify({ transactions: indexes.map(drillTransaction) }),
          signal: AbortSignal.timeout(20_000),
        });
        statuses.push(response.status);
        const body = (await response.json()) as { results?: Array<{ message_id?: string }> };
        for (const [k, result] of (body.results ?? []).entries()) {
          if (result.message_id) accepted.push({ messageId: result.message_id, index: indexes[k] as number });
        }
      } catch {
        statuses.push(0);
      }
      await options.between?.(++answered);
      if (options.pauseMs) await delay(options.pauseMs);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, sender));
  return { accepted, statuses };
}

/** Polls the organization's records until `count` exist or `timeoutMs` passes; returns them by id. */
export async function waitForRecords(db: Firestore, organizationId: string, count: number, timeoutMs: number) {
  const records = db.collection(COLLECTIONS.organizations).doc(organizationId).collection(COLLECTIONS.transactions);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const snap = await records.get().catch(() => undefined);
    if ((snap && snap.size >= count) || Date.now() > deadline) {
      return new Map((snap?.docs ?? []).map((doc) => [doc.id, doc.data() as { cost_nanos: number | null }]));
    }
    await delay(500);
  }
}
