import type { Firestore } from "@google-cloud/firestore";
import { daysOfMonth, foldMonth, type SummaryCell, writeSummary } from "@usage-ingestion/reports";
import { CUSTOMERS, cell, cellsOf, hourCells } from "./report-cells.ts";

/**
 * A month of a company that bills thousands of customers: BENCH_REPORT_TRANSACTIONS (10,000,000)
 * transactions in January 2026 over 10,000 cells a day. Seeded as the issue allows: one day's cells,
 * repeated on every day, written by the fold's own writer as day summaries and as hour summaries for the
 * hours of the edges; then the month summary folded from them by the fold itself. A report reads only
 * summaries, so writing every shard or record would take the emulator hours and change no report's reads.
 */
export const MONTH_TRANSACTIONS = Number(process.env.BENCH_REPORT_TRANSACTIONS ?? 10_000_000);
export const MONTH = "2026-01";
export const DAYS = daysOfMonth(MONTH);
const perCellDay = Math.max(3, Math.round(MONTH_TRANSACTIONS / DAYS.length / (CUSTOMERS * 2)));

/** The cells of one whole day. */
function dayCells(): SummaryCell[] {
  const out: SummaryCell[] = [];
  for (let c = 0; c < CUSTOMERS; c++) for (const model of cellsOf(c)) out.push(cell(c, model, perCellDay));
  return out;
}

export async function seedMonth(db: Firestore, organizationId: string) {
  const readTime = new Date().toISOString();
  const day = dayCells();
  for (const each of DAYS) await writeSummary(db, organizationId, { kind: "day", day: each }, day, readTime);
  const edgeHours = [
    ...Array.from({ length: 12 }, (_, h) => ({ day: DAYS[0] as string, h: 12 + h })),
    ...Array.from({ length: 12 }, (_, h) => ({ day: DAYS[DAYS.length - 1] as string, h })),
  ];
  let hourCellCount = 0;
  for (const { day: date, h } of edgeHours) {
    const hour = `${date}T${String(h).padStart(2, "0")}`;
    const these = hourCells(h, () => perCellDay);
    hourCellCount += these.length;
    await writeSummary(db, organizationId, { kind: "hour", hour }, these, readTime);
  }
  const started = Date.now();
  const month = await foldMonth(db, organizationId, MONTH);
  return {
    transactions: perCellDay * day.length * DAYS.length,
    dayCells: day.length,
    hourCells: hourCellCount,
    monthCells: month.cells,
    monthParts: month.parts,
    monthFoldMs: Date.now() - started,
  };
}
