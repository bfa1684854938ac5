import { TIER_RULES, TOKEN_PRICES, UNIT_PRICES } from "./index.ts";

/** One row of our price table, by what it prices and the page it was read from. */
export interface TableRow {
  provider: string;
  /** The models (or model pattern) and, for tiers and units, what the row prices. */
  what: string;
  source: string;
  /** The date the page was read (`read YYYY-MM-DD`), or the date of the stored copy; null if neither. */
  read: string | null;
}

/** The date a row's source says its page was read, else the first date of its copy; null when none. */
export function readDate(source: string): string | null {
  return (/\bread (\d{4}-\d{2}-\d{2})\b/.exec(source) ?? /\b(\d{4}-\d{2}-\d{2})\b/.exec(source))?.[1] ?? null;
}

/** Every row of our table, with the date its page was read. */
export function tableRows(): TableRow[] {
  const row = (provider: string, what: string, source: string): TableRow => ({
    provider,
    what,
    source,
    read: readDate(source),
  });
  return [
    ...TOKEN_PRICES.map((entry) =>
      row(entry.provider, `${entry.models.join(", ")}${entry.tier ? ` tier ${entry.tier}` : ""} tokens`, entry.source),
    ),
    ...UNIT_PRICES.map((price) =>
      row(price.provider, `${price.model} ${price.kind}${price.quality ? ` ${price.quality}` : ""}`, price.source),
    ),
    ...TIER_RULES.map((rule) =>
      row(rule.provider, `${rule.models.join(", ")} tier ${rule.tier} x${rule.factor}`, rule.source),
    ),
  ];
}

/** The rows whose page was read before `cutoff` (YYYY-MM-DD), or whose source states no date. */
export const rowsReadBefore = (cutoff: string): TableRow[] =>
  tableRows().filter((row) => row.read === null || row.read < cutoff);
