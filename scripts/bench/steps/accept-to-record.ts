import type { CollectionReference } from "@google-cloud/firestore";
import { delay } from "../../lib/processes.ts";
import { singleBody } from "../context.ts";

export interface LatencyFigures {
  samples: number;
  p50Ms: number;
  p99Ms: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/** Step 5: from a 202 to the stored record, one request every ~20 ms through gateway, Pub/Sub and worker. */
export async function acceptToRecord(options: {
  gatewayUrl: string;
  headers: Record<string, string>;
  records: CollectionReference;
  samples: number;
}): Promise<LatencyFigures> {
  const latencies: number[] = [];
  const pending: Array<Promise<void>> = [];
  for (let i = 0; i < options.samples; i++) {
    const response = await fetch(options.gatewayUrl, {
      method: "POST",
      headers: { "content-type": "application/json", ...options.headers },
      body: singleBody,
    });
    const acceptedAt = Date.now();
    const id = ((await response.json()) as { results: Array<{ message_id: string }> }).results[0]?.message_id as string;
    pending.push(
      (async () => {
        const doc = options.records.doc(id);
        for (;;) {
          const snap = await doc.get();
          if (snap.exists && snap.createTime) {
            latencies.push(snap.createTime.toMillis() - acceptedAt);
            return;
          }
          await delay(20);
        }
      })(),
    );
    await delay(20);
  }
  await Promise.all(pending);
  latencies.sort((a, b) => a - b);
  return { samples: options.samples, p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99) };
}
