/**
 * The range of a report in the browser's own time zone: presets (today, the last 7 days, this month,
 * last month) or custom days, each turned into the instants the API takes (`from` inclusive, `to`
 * exclusive). The URL keeps the preset's name, or the custom days, never instants, so a shared link
 * means the same days for whoever opens it.
 */
export const PRESETS: Array<[string, string]> = [
  ["today", "Today"],
  ["7d", "Last 7 days"],
  ["month", "This month"],
  ["last-month", "Last month"],
  ["custom", "Custom"],
];

export interface Range {
  preset: string;
  /** Local days, YYYY-MM-DD; `to` inclusive as people say it ("1 to 7 March"). */
  fromDay: string;
  toDay: string;
  /** The instants for the API. */
  from: string;
  to: string;
}

const pad = (value: number) => String(value).padStart(2, "0");
export const dayOf = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
const startOf = (day: string) => {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(year, month - 1, date);
};
const addDays = (date: Date, days: number) => new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The range the query names (`range`, and `from`/`to` days for custom); today by default. */
export function rangeOf(params: URLSearchParams, now = new Date()): Range {
  const preset = params.get("range") ?? "7d";
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  let first: Date;
  let last: Date;
  if (preset === "today") [first, last] = [today, today];
  else if (preset === "month") [first, last] = [new Date(today.getFullYear(), today.getMonth(), 1), today];
  else if (preset === "last-month") {
    first = new Date(today.getFullYear(), today.getMonth() - 1, 1);
    last = new Date(today.getFullYear(), today.getMonth(), 0);
  } else if (preset === "custom" && DAY.test(params.get("from") ?? "") && DAY.test(params.get("to") ?? "")) {
    first = startOf(params.get("from") as string);
    last = startOf(params.get("to") as string);
  } else [first, last] = [addDays(today, -6), today];
  if (last < first) [first, last] = [last, first];
  return {
    preset: preset === "custom" || PRESETS.some(([name]) => name === preset) ? preset : "7d",
    fromDay: dayOf(first),
    toDay: dayOf(last),
    from: first.toISOString(),
    to: addDays(last, 1).toISOString(),
  };
}
