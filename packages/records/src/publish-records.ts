import type { Firestore, QueryDocumentSnapshot } from "@google-cloud/firestore";
import { getOrganization } from "@usage-ingestion/organizations";
import { type CostRecord, DOCUMENT_PATHS } from "@usage-ingestion/shared";
import type { RecordsFeed } from "./records-feed.ts";

/** Records read and published per page: one read, then one publish call (Pub/Sub's limit is 1,000 a call). */
export const RECORDS_PAGE_SIZE = 500;

export interface PublishRange {
  /** ISO 8601 times; records received at or after `from` and before `to`. */
  from: string;
  to: string;
  pageSize?: number;
  /** Told after each page: how many so far, and the receive time of the last one published. */
  onPage?: (published: number, lastReceivedAt: string) => void;
}

/** Thrown when a page could not be published: what was published before it stays published. */
export class RecordsPublishError extends Error {
  override name = "RecordsPublishError";
  constructor(
    readonly published: number,
    readonly resumeFrom: string,
    cause: unknown,
  ) {
    super(
      `published ${published} records, then the records topic did not confirm a page (${(cause as Error).message}); ` +
        `run again with --from ${resumeFrom} to go on`,
    );
  }
}

/**
 * Publishes an organization's stored records received in [from, to) to the records feed again, in receive
 * time order, a page at a time: each page is read, published and confirmed before the next is read, so
 * memory holds one page whatever the range. Rows published twice are harmless (the view keeps one per
 * message id, the highest revision). For gaps: a feed that was down longer than redelivery covered, a
 * table restored, records stored before the feed existed.
 */
export async function publishRecords(
  db: Firestore,
  organizationId: string,
  feed: RecordsFeed,
  range: PublishRange,
): Promise<{ published: number }> {
  await getOrganization(db, organizationId);
  const pageSize = range.pageSize ?? RECORDS_PAGE_SIZE;
  const query = db
    .collection(DOCUMENT_PATHS.transactions(organizationId))
    .where("received_at", ">=", range.from)
    .where("received_at", "<", range.to)
    .orderBy("received_at")
    .limit(pageSize);
  let published = 0;
  let last: QueryDocumentSnapshot | undefined;
  let resumeFrom = range.from;
  for (;;) {
    const page = await (last ? query.startAfter(last) : query).get();
    if (page.empty) return { published };
    const records = page.docs.map((doc) => doc.data() as CostRecord);
    try {
      await Promise.all(records.map((record) => feed.publish(record)));
    } catch (error) {
      throw new RecordsPublishError(published, resumeFrom, error);
    }
    published += records.length;
    last = page.docs[page.docs.length - 1];
    resumeFrom = (records[records.length - 1] as CostRecord).received_at;
    range.onPage?.(published, resumeFrom);
    if (page.size < pageSize) return { published };
  }
}
