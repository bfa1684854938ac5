import type { Firestore } from "@google-cloud/firestore";
import type { ReportCeiling } from "@usage-ingestion/reports";
import { listRecords, type RecordsPage } from "./list-records.ts";
import { readRecord } from "./read-record.ts";
import type { RecordDetail } from "./record-view.ts";
import { type PageTokens, pageTokens } from "./records-page-token.ts";
import type { RecordsQuery } from "./records-query.ts";

/** What the records routes read: a listing's pages and one record, and the tokens a listing is paged by. */
export interface RecordReader {
  readonly pageTokens: PageTokens;
  list(organizationId: string, query: RecordsQuery, budget: ReportCeiling, now: Date): Promise<RecordsPage>;
  get(organizationId: string, messageId: string, timeoutMs: number): Promise<RecordDetail | null>;
}

/**
 * Reads the records database. Give it a plain client (not `useBigInt`): records hold safe integers only,
 * and an answer is JSON, which has no BigInt. `pageTokenKey` signs the listings' page tokens.
 */
export function firestoreRecordReader(db: Firestore, pageTokenKey: string): RecordReader {
  const tokens = pageTokens(pageTokenKey);
  return {
    pageTokens: tokens,
    list: (organizationId, query, budget, now) => listRecords(db, tokens, organizationId, query, budget, now),
    get: (organizationId, messageId, timeoutMs) => readRecord(db, organizationId, messageId, timeoutMs),
  };
}
