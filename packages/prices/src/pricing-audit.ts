import type { Firestore } from "@google-cloud/firestore";
import { listOrganizations } from "@usage-ingestion/organizations";
import {
  costReport,
  firestoreReportSource,
  parseCostQuery,
  ReportCeiling,
  ReportTooLarge,
  unpricedReport,
} from "@usage-ingestion/reports";
import type { Provider } from "@usage-ingestion/shared";
import { UserError } from "@usage-ingestion/shared";
import { publishedSourceOf } from "./audit-sources.ts";
import { getCustomPricing } from "./custom-price-list.ts";
import { loadPlatformPricing } from "./custom-pricing-store.ts";
import { rowsReadBefore } from "./table/read-dates.ts";

/** A table row is due for a new reading after this many days. */
export const STALE_AFTER_DAYS = 90;

interface Seen {
  provider: string;
  model: string;
  model_tier: string | null;
  /** The unpriced reason's first part (`unknown_model`, `no price for model_tier ...`), or the price source. */
  why: string;
  transactions: number;
}

const DAY_MS = 86_400_000;
/** Organizations read at once. */
const AUDIT_CONCURRENCY = 8;

/**
 * `pricing audit [--from ISO] [--to ISO]`: for the range (the reports' default and bounds), across every
 * organization, the models seen unpriced and those priced through the catalog fallback (no row of our
 * table, no platform price, no organization price), with their transaction counts; then every row of our
 * table whose page was read more than 90 days before `now`.
 */
export async function pricingAudit(
  db: Firestore,
  reportsDb: Firestore,
  params: { from?: string; to?: string },
  now = new Date(),
): Promise<string[]> {
  const parsed = parseCostQuery({ ...params, group_by: "provider,model,model_tier" }, [], now);
  if (!parsed.ok) throw new UserError(parsed.message);
  const query = { ...parsed.query, limit: Number.POSITIVE_INFINITY };
  const source = firestoreReportSource(reportsDb);
  const platform = await loadPlatformPricing(db);
  const unpriced = new Map<string, Seen>();
  const fallback = new Map<string, Seen>();
  const count = (into: Map<string, Seen>, seen: Omit<Seen, "transactions">, transactions: number) => {
    const id = JSON.stringify([seen.provider, seen.model, seen.model_tier, seen.why]);
    const found = into.get(id) ?? { ...seen, transactions: 0 };
    found.transactions += transactions;
    into.set(id, found);
  };
  const readOrganization = async (org: { id: string }) => {
    // An operator's audit: ceilings an operator would rather wait for, as `admin costs`.
    const ceiling = new ReportCeiling({ maxDocuments: 2_000_000, timeoutMs: 600_000, maxGroups: 2_000_000 });
    const [gaps, costs, own] = await Promise.all([
      unpricedReport(source, org.id, query, ceiling),
      costReport(source, org.id, query, [], ceiling),
      getCustomPricing(db, org.id),
    ]).catch((error: unknown) => {
      throw error instanceof ReportTooLarge ? new UserError(`${org.id}: ${error.message}`) : error;
    });
    for (const entry of gaps.unpriced) {
      const why = entry.reason.split(":")[0]?.slice(0, 120) ?? entry.reason;
      count(
        unpriced,
        { provider: entry.provider, model: entry.model, model_tier: entry.model_tier, why },
        entry.transactions,
      );
    }
    const ownPrices = new Set(own.prices.map((price) => `${price.provider}\u0000${price.model}`));
    for (const group of costs.groups) {
      const { provider, model, model_tier } = group.key as {
        provider: string;
        model: string;
        model_tier: string | null;
      };
      const priced = group.transactions - group.unpriced_transactions;
      if (priced <= 0 || ownPrices.has(`${provider}\u0000${model}`)) continue;
      if (publishedSourceOf(provider as Provider, model, model_tier, query.to, platform) !== "catalog") continue;
      count(fallback, { provider, model, model_tier, why: "catalog" }, priced);
    }
  };
  // A few organizations at a time: the reads are small and many, and the counts are added as they come.
  const organizations = await listOrganizations(db);
  for (let first = 0; first < organizations.length; first += AUDIT_CONCURRENCY) {
    await Promise.all(organizations.slice(first, first + AUDIT_CONCURRENCY).map(readOrganization));
  }

  const cutoff = new Date(now.getTime() - STALE_AFTER_DAYS * DAY_MS).toISOString().slice(0, 10);
  const stale = rowsReadBefore(cutoff);
  const byCount = (a: Seen, b: Seen) => b.transactions - a.transactions || a.model.localeCompare(b.model);
  const line = (seen: Seen) =>
    `  ${seen.provider}\t${seen.model}\t${seen.model_tier ?? "-"}\t${seen.transactions}${seen.why === "catalog" ? "" : `\t${seen.why}`}`;
  return [
    `pricing audit from ${query.from.toISOString()} to ${query.to.toISOString()}, every organization`,
    `unpriced (provider, model, tier, transactions, reason): ${unpriced.size}`,
    ...[...unpriced.values()].sort(byCount).map(line),
    `priced through the catalog fallback, with no price of our own (provider, model, tier, transactions): ${fallback.size}`,
    ...[...fallback.values()].sort(byCount).map(line),
    `table rows read more than ${STALE_AFTER_DAYS} days ago (before ${cutoff}) or undated: ${stale.length}`,
    ...stale.map((row) => `  ${row.provider}\t${row.what}\tread ${row.read ?? "(no date)"}\t${row.source}`),
  ];
}

/** `pricing audit [--from ISO] [--to ISO]`, printed a line at a time. */
export async function runPricingAudit(
  args: string[],
  db: Firestore,
  reportsDb: Firestore,
  out: (line: string) => void,
): Promise<void> {
  const params: { from?: string; to?: string } = {};
  for (let index = 0; index < args.length; index += 2) {
    const [name, value] = [args[index], args[index + 1]];
    if ((name !== "--from" && name !== "--to") || value === undefined || value.startsWith("--")) {
      throw new UserError("usage: npm run admin -- pricing audit [--from ISO] [--to ISO]");
    }
    params[name === "--from" ? "from" : "to"] = value;
  }
  for (const line of await pricingAudit(db, reportsDb, params)) out(line);
}
