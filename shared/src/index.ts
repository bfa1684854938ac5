// The contract: runs anywhere (browsers, edge runtimes, Node). Server-only helpers are in `./server`.
export * from "./custom-pricing.ts";
export * from "./error-replies.ts";
export * from "./field-errors.ts";
export * from "./firestore-layout.ts";
export * from "./limits.ts";
export * from "./money.ts";
export * from "./price-components.ts";
export * from "./providers.ts";
export * from "./records.ts";
export * from "./responses.ts";
export * from "./rollups.ts";
export * from "./schemas/field-rules.ts";
export * from "./schemas/queue-message.ts";
export * from "./schemas/transaction.ts";
export * from "./schemas/usage.ts";
export * from "./timeout.ts";
export * from "./validate-transaction.ts";
