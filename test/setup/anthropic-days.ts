import { DAY_MS, DEFAULT_VENDOR_HTTP, type ReconcileDeps, readAnthropic } from "@usage-ingestion/reconciliation";
import { handleMessage } from "@usage-ingestion/records";
import { firestoreReportSource } from "@usage-ingestion/reports";
import { secretBox } from "@usage-ingestion/webhooks";
import { anthropicCostRow as cost, anthropicUsageRow as usage } from "./anthropic-report-rows.ts";
import { validTransaction } from "./fixtures.ts";
import { reportsFirestore } from "./harness.ts";
import { ANTHROPIC_PATHS, type VendorStandIn } from "./vendor-stand-ins.ts";
import { envelope, pushEvent, workerDeps } from "./worker.ts";

// Three days of Claude usage, ours and Anthropic's (a local stand-in serving the Admin API's report shapes),
// for the console's Reconciliation tests: one matched, one a price mismatch, one the vendor's alone.
export const SONNET = "claude-sonnet-4-5-20250929";
export const HAIKU = "claude-haiku-4-5-20251001";
export const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
/** The UTC day `n` days before today. */
export const day = (n: number) => new Date(today - n * DAY_MS).toISOString().slice(0, 10);

/**
 * Ten calls of Claude Sonnet 4.5 on a day, each 10,000 uncached input, 100,000 cache reads and 2,000 output
 * tokens: at $3, $0.30 and $15 per million (platform.claude.com/docs/en/about-claude/pricing, read
 * 2026-11-29) each costs $0.03 + $0.03 + $0.03, the day $0.90.
 */
async function sendDay(org: string, n: number) {
  for (let i = 0; i < 10; i++) {
    const metrics = {
      input_tokens: 10_000,
      cache_read_input_tokens: 100_000,
      output_tokens: 2_000,
      total_tokens: 112_000,
    };
    const transaction = validTransaction({
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: [{ type: "tokens", metrics }],
    });
    await handleMessage(
      workerDeps(),
      pushEvent({ ...envelope(org, transaction), received_at: `${day(n)}T12:00:0${i}.000Z` }),
    );
  }
}

/**
 * Our $0.90 on each of the days 3 and 2 before today; Anthropic's $0.90 on day 3, $0.975 on day 2 (the cache
 * reads billed at 37.5 cents: our cache-read rate is not the vendor's), and $0.075 of Haiku on day 1 that
 * never reached us.
 */
export async function anthropicDays(org: string, stand: VendorStandIn) {
  for (const n of [3, 2]) await sendDay(org, n);
  const [usagePath, costPath] = ANTHROPIC_PATHS as [string, string];
  stand.state.days[usagePath] = {
    [day(3)]: [usage(SONNET, 100_000, 1_000_000, 20_000)],
    [day(2)]: [usage(SONNET, 100_000, 1_000_000, 20_000)],
    // Calls the vendor billed that never reached us: 50,000 input and 5,000 output tokens of Haiku 4.5.
    [day(1)]: [usage(HAIKU, 50_000, 0, 5_000)],
  };
  stand.state.days[costPath] = {
    [day(3)]: [
      cost(SONNET, "uncached_input_tokens", "30"),
      cost(SONNET, "cache_read_input_tokens", "30"),
      cost(SONNET, "output_tokens", "30"),
    ],
    [day(2)]: [
      cost(SONNET, "uncached_input_tokens", "30"),
      cost(SONNET, "cache_read_input_tokens", "37.5"),
      cost(SONNET, "output_tokens", "30"),
    ],
    // Haiku 4.5 at $1 and $5 per million (the same pricing page): 5 cents and 2.5 cents.
    [day(1)]: [cost(HAIKU, "uncached_input_tokens", "5"), cost(HAIKU, "output_tokens", "2.5")],
  };
}

/** The worker's reconciliation tick, as the job runs it, its Anthropic address the stand-in's. */
export function anthropicTickDeps(stand: VendorStandIn, secretKey: Buffer): ReconcileDeps {
  const http = { settings: DEFAULT_VENDOR_HTTP, fetch: globalThis.fetch, sleep: async () => {} };
  return {
    db: reportsFirestore(),
    box: secretBox(secretKey),
    reports: firestoreReportSource(reportsFirestore()),
    readers: {
      anthropic: (credential, range) =>
        readAnthropic({ http, baseUrl: stand.baseUrl, now: new Date() }, credential, range),
    },
    now: () => new Date(),
  };
}
