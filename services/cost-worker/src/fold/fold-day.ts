import { randomUUID } from "node:crypto";
import type { Firestore, QueryDocumentSnapshot, Timestamp } from "@google-cloud/firestore";
import {
  type CostRollupDocument,
  type CostSummaryDocument,
  cellText,
  DOCUMENT_PATHS,
  ROLLUP_QUANTITIES,
  SUMMARY_PATHS,
  type SummaryCell,
} from "@usage-ingestion/shared";

/** Shards read a page at a time within the fold's snapshot. */
const PAGE = 1_000;
/** A part's cells as JSON, at most: well inside Firestore's 1 MiB a document, with room for the other fields. */
export const MAX_PART_BYTES = 800_000;

export interface FoldedDay {
  day: string;
  shards: number;
  cells: number;
  parts: number;
  read_time: string;
}

/** Integers as a `useBigInt` client or a plain one hands them back. */
const whole = (value: unknown): bigint =>
  typeof value === "bigint" ? value : typeof value === "number" ? BigInt(Math.trunc(value)) : 0n;
const count = (value: unknown): number => (typeof value === "bigint" ? Number(value) : Number(value ?? 0));

/** Sums shards into cells: one entry per cell key, the shards' counters added. */
function addShard(cells: Map<string, { cell: SummaryCell; nanos: bigint }>, doc: CostRollupDocument) {
  const key = cellText(doc);
  let entry = cells.get(key);
  if (!entry) {
    const cell: SummaryCell = [
      doc.provider,
      doc.model,
      doc.model_tier ?? null,
      doc.billable_customer_id,
      doc.dimensions ?? {},
      0,
      0,
      0,
      "0",
      ROLLUP_QUANTITIES.map(() => 0),
    ];
    entry = { cell, nanos: 0n };
    cells.set(key, entry);
  }
  entry.cell[5] += count(doc.transactions);
  entry.cell[6] += count(doc.unpriced_transactions);
  entry.cell[7] += count(doc.conflict_transactions);
  entry.nanos += whole(doc.cost_nanos);
  ROLLUP_QUANTITIES.forEach((name, i) => {
    (entry.cell[9][i] as number) += count(doc.quantities?.[name]);
  });
}

/** The cells' JSON in parts of at most `maxBytes` (one part, maybe empty, at least), with their counts. */
export function splitParts(
  cells: readonly SummaryCell[],
  maxBytes = MAX_PART_BYTES,
): Array<{ text: string; count: number }> {
  const parts: string[][] = [[]];
  let bytes = 2;
  for (const cell of cells) {
    const text = JSON.stringify(cell);
    const size = Buffer.byteLength(text) + 1;
    const current = parts[parts.length - 1] as string[];
    if (current.length > 0 && bytes + size > maxBytes) {
      parts.push([text]);
      bytes = 2 + size;
    } else {
      current.push(text);
      bytes += size;
    }
  }
  return parts.map((texts) => ({ text: `[${texts.join(",")}]`, count: texts.length }));
}

/**
 * Folds one organization's UTC day: reads every roll-up shard of the day in one read-only transaction (a
 * consistent snapshot, taking no lock the worker's commits would wait on), then writes the summary's parts
 * in one batch, all stamped with the snapshot's time. Safe to rerun and to run twice at once: each fold
 * writes a whole summary of its own snapshot under its own `fold_id`, and a reader takes one fold's parts
 * only, judging its freshness by that fold's own read time.
 */
export async function foldDay(db: Firestore, organizationId: string, day: string): Promise<FoldedDay> {
  const cells = new Map<string, { cell: SummaryCell; nanos: bigint }>();
  let shards = 0;
  let readTime: Timestamp | undefined;
  const next = new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
  const query = db
    .collection(DOCUMENT_PATHS.costRollups(organizationId))
    .where("day", ">=", day)
    .where("day", "<", next)
    .orderBy("day");
  await db.runTransaction(
    async (transaction) => {
      cells.clear();
      shards = 0;
      readTime = undefined;
      let after: QueryDocumentSnapshot | undefined;
      for (;;) {
        const snap = await transaction.get((after ? query.startAfter(after) : query).limit(PAGE));
        readTime ??= snap.readTime;
        for (const doc of snap.docs) addShard(cells, doc.data() as CostRollupDocument);
        shards += snap.size;
        if (snap.size < PAGE) return;
        after = snap.docs[snap.docs.length - 1];
      }
    },
    { readOnly: true },
  );
  const folded = [...cells.values()].map(({ cell, nanos }) => {
    cell[8] = nanos.toString();
    return cell;
  });
  const parts = splitParts(folded);
  const foldId = randomUUID();
  // Milliseconds, rounded down: a read time a little early only ever makes the summary look staler.
  const read_time = (readTime as Timestamp).toDate().toISOString();
  const batch = db.batch();
  parts.forEach(({ text, count: cellCount }, part) => {
    const doc: CostSummaryDocument = {
      day,
      part,
      parts: parts.length,
      fold_id: foldId,
      read_time,
      cell_count: cellCount,
      cells: text,
    };
    batch.set(db.doc(SUMMARY_PATHS.costSummary(organizationId, day, part)), doc);
  });
  await batch.commit();
  return { day, shards, cells: folded.length, parts: parts.length, read_time };
}
