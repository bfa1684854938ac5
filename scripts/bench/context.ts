import type { Firestore } from "@google-cloud/firestore";
import type { PubSub } from "@google-cloud/pubsub";
import { SERVICE_MEMORY_FLAGS } from "../lib/services.ts";

/** What every step of `npm run bench` is given: the emulators' clients, the bench key and the settings. */
export interface BenchContext {
  projectId: string;
  organizationId: string;
  env: Record<string, string>;
  db: Firestore;
  pubsub: PubSub;
  headers: Record<string, string>;
  logDir: string;
  seconds: number;
  /** The CPUs the measured HTTP servers are pinned to (taskset's list form), or undefined (cpu-affinity.ts). */
  serverCpus?: string;
  /** Registers a clean-up run at the end, even when a step throws. */
  onCleanup(step: () => Promise<void>): void;
}

/** The memory bounds the deployed services use (infra sets NODE_OPTIONS to the same). */
export const SERVICE_NODE_OPTIONS = process.env.BENCH_SERVICE_NODE_OPTIONS ?? SERVICE_MEMORY_FLAGS.join(" ");

/**
 * The gateway's rate limits raised past any load the bench sends: the limiters still run on every request
 * (their cost is measured), but none refuses, so every request is the accepted path.
 */
export const BENCH_RATE_LIMITS: Record<string, string> = {
  RATE_LIMIT_ORG_TRANSACTIONS_PER_SECOND: "1000000000",
  RATE_LIMIT_KEY_TRANSACTIONS_PER_SECOND: "1000000000",
};

/** One priced transaction, as a client would send it. */
export const transaction = {
  provider: "openai",
  model: "gpt-4o",
  usage: [
    { type: "tokens", metrics: { input_tokens: 1200, cached_tokens: 200, output_tokens: 300, total_tokens: 1500 } },
  ],
  context: { billable_customer_id: "customer-1", feature: "chat", environment: "bench" },
};
export const BULK_SIZE = 100;
export const singleBody = JSON.stringify(transaction);
export const bulkBody = JSON.stringify({ transactions: Array.from({ length: BULK_SIZE }, () => transaction) });

/** Flags for the measured services' node, e.g. BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=prof" for profiles. */
export const serviceNodeFlags = () => (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);

/** Where the minimal push handler (the worker's yardstick) writes its one document per message. */
export const MINIMAL_COLLECTION = "bench_minimal_records";
