// Reconciliation with the vendors' own reports: each organization's connections to them.
export * from "./connection-documents.ts";
export * from "./connection-input.ts";
export * from "./connection-store.ts";
export * from "./vendors.ts";
