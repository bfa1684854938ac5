// Records: one priced record per queued transaction, stored exactly once, its row for BigQuery, and
// reading records back (a listing paged on a snapshot, one record by its id).
export * from "./build-record.ts";
export * from "./list-records.ts";
export * from "./publish-records.ts";
export * from "./read-record.ts";
export * from "./record-message.ts";
export * from "./record-reader.ts";
export * from "./record-rows.ts";
export * from "./record-view.ts";
export * from "./records-feed.ts";
export * from "./records-page-token.ts";
export * from "./records-query.ts";
export * from "./reprice-unpriced.ts";
export * from "./repricing.ts";
export * from "./store/firestore-safe.ts";
export * from "./store/records.ts";
