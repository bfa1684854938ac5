// Reconciliation with the vendors' own reports: each organization's connections to them, each vendor's
// figures read from its own API.
export * from "./compare.ts";
export * from "./connection-documents.ts";
export * from "./connection-input.ts";
export * from "./connection-store.ts";
export * from "./drift-events.ts";
export * from "./gemini-skus.ts";
export * from "./model-key.ts";
export * from "./our-figures.ts";
export * from "./our-rates.ts";
export * from "./read-anthropic.ts";
export * from "./read-gemini.ts";
export * from "./read-openai.ts";
export * from "./reconcile-run.ts";
export * from "./reconcile-tick.ts";
export * from "./reconciliation-query.ts";
export * from "./reconciliation-rows.ts";
export * from "./reconciliation-settings.ts";
export * from "./reconciliation-store.ts";
export * from "./run-documents.ts";
export * from "./run-store.ts";
export * from "./settings-store.ts";
export * from "./split-by.ts";
export * from "./vendor-days.ts";
export * from "./vendor-figures.ts";
export * from "./vendor-http.ts";
export * from "./vendors.ts";
