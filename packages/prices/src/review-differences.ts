import {
  differencesFromCatalog,
  type PriceDifference,
  type StandardTransaction,
  shown,
  type VendorProvider,
} from "./compare-with-catalog.ts";
import { TOKEN_PRICES } from "./table/index.ts";

/** One reviewed difference: a standard transaction both sources bill differently, and what decides it. */
export interface ReviewedCase {
  at: string;
  transaction: StandardTransaction;
  /** Our bill in USD, or `unpriced`. */
  ours: string;
  catalog: string;
  /** The vendor page (and the date it was read) that decides the difference. */
  decided_by: string;
}

export interface ReviewedDifference {
  provider: VendorProvider;
  model: string;
  /** Why the vendor page decides for our side (or for leaving the transaction unpriced). */
  why: string;
  cases: ReviewedCase[];
}

const caseKey = (provider: string, model: string, at: string, transaction: string) =>
  [provider, model, new Date(at).toISOString(), transaction].join(" ");

export interface CheckResult {
  /** Differences no reviewed case lists with the same amounts. */
  unexplained: PriceDifference[];
  /** Reviewed cases that no longer differ as listed (fixed, or the amounts moved): to remove or review again. */
  stale: string[];
  /** Reviewed entries without a reason or a deciding page. */
  unreviewed: string[];
}

/** Compares the differences found with the reviewed list. */
export function checkDifferences(found: PriceDifference[], reviewed: readonly ReviewedDifference[]): CheckResult {
  const listed = new Map<string, ReviewedCase>();
  const unreviewed: string[] = [];
  for (const entry of reviewed) {
    if (!entry.why.trim()) unreviewed.push(`${entry.provider} ${entry.model}: no reason given`);
    for (const c of entry.cases) {
      if (!/\d{4}-\d{2}-\d{2}|copy/.test(c.decided_by))
        unreviewed.push(`${entry.provider} ${entry.model} ${c.at}: the deciding page names no date read`);
      listed.set(caseKey(entry.provider, entry.model, c.at, c.transaction), c);
    }
  }
  const matched = new Set<string>();
  const unexplained = found.filter((difference) => {
    const key = caseKey(difference.provider, difference.model, difference.at, difference.transaction);
    const c = listed.get(key);
    if (c && c.ours === shown(difference.ours) && c.catalog === shown(difference.catalog)) {
      matched.add(key);
      return false;
    }
    return true;
  });
  const stale = [...listed.keys()].filter((key) => !matched.has(key));
  return { unexplained, stale, unreviewed };
}

/** The source of our newest row naming the model at `at` (standard tier): the page our side rests on. */
export function decidingPage(provider: string, model: string, at: string): string {
  const time = new Date(at).getTime();
  const rows = TOKEN_PRICES.filter(
    (row) =>
      row.provider === provider &&
      !row.tier &&
      row.models.includes(model) &&
      new Date(row.effectiveFrom).getTime() <= time &&
      (row.until === undefined || time < new Date(row.until).getTime()),
  );
  return rows.at(-1)?.source ?? "";
}

/** A reviewed-list skeleton for the unexplained differences: the reason is left for the reviewer to write. */
export function draftEntries(unexplained: PriceDifference[]): ReviewedDifference[] {
  const entries = new Map<string, ReviewedDifference>();
  for (const d of unexplained) {
    const key = `${d.provider} ${d.model}`;
    const entry = entries.get(key) ?? { provider: d.provider, model: d.model, why: "", cases: [] };
    entry.cases.push({
      at: d.at,
      transaction: d.transaction,
      ours: shown(d.ours),
      catalog: shown(d.catalog),
      decided_by: decidingPage(d.provider, d.model, d.at),
    });
    entries.set(key, entry);
  }
  return [...entries.values()];
}

/** `npm run prices:check` and its test: the comparison, checked against the reviewed list, as lines to print. */
export function pricesCheck(reviewed: readonly ReviewedDifference[]): {
  ok: boolean;
  lines: string[];
  result: CheckResult;
} {
  const { compared, differences } = differencesFromCatalog();
  const result = checkDifferences(differences, reviewed);
  const lines = [
    `${compared} standard transactions priced by our table and the catalog; ${differences.length} differ, ${differences.length - result.unexplained.length} of them reviewed`,
    ...result.unexplained.map(
      (d) =>
        `unexplained: ${d.provider} ${d.model} at ${d.at} (${d.transaction}): ours ${shown(d.ours)}, catalog ${shown(d.catalog)}`,
    ),
    ...result.stale.map((key) => `no longer differs as reviewed (remove or review again): ${key}`),
    ...result.unreviewed.map((problem) => `not reviewed: ${problem}`),
  ];
  const ok = !result.unexplained.length && !result.stale.length && !result.unreviewed.length;
  return { ok, lines, result };
}
