import { type RecordRow, WITHDRAWN } from "@usage-ingestion/records";

/**
 * What the view `usage.records_latest` (infra/modules/analytics/records.tf) shows of published rows: per
 * message id, the row with the highest revision, the latest `published_at` among equals, and nothing for a
 * message whose latest row is a withdrawal. Two rows of one revision published at the same time would
 * leave BigQuery to choose: that is refused here, so a test sees the worker's ordering, not luck.
 */
export function recordsLatest(rows: readonly RecordRow[]): Map<string, RecordRow> {
  const latest = new Map<string, RecordRow>();
  for (const row of rows) {
    const held = latest.get(row.message_id);
    if (held && held.revision === row.revision && held.published_at === row.published_at) {
      throw new Error(`two rows of ${row.message_id} at revision ${row.revision} published at ${row.published_at}`);
    }
    const later =
      !held ||
      row.revision > held.revision ||
      (row.revision === held.revision && Date.parse(row.published_at) > Date.parse(held.published_at));
    if (later) latest.set(row.message_id, row);
  }
  for (const [messageId, row] of latest) if (row.status === WITHDRAWN) latest.delete(messageId);
  return latest;
}
