// Records: one priced record per queued transaction, stored exactly once, and its row for BigQuery.
export * from "./build-record.ts";
export * from "./publish-records.ts";
export * from "./record-message.ts";
export * from "./record-rows.ts";
export * from "./records-feed.ts";
export * from "./reprice-unpriced.ts";
export * from "./repricing.ts";
export * from "./store/firestore-safe.ts";
export * from "./store/records.ts";
