// Prices: what a model costs, from the sourced table, the catalog and the organization's own list.
export * from "./choose-rate-card.ts";
export * from "./compare-with-catalog.ts";
export * from "./custom-price-changes.ts";
export * from "./custom-price-list.ts";
export * from "./custom-pricing.ts";
export * from "./custom-pricing-store.ts";
export * from "./explain-rates.ts";
export * from "./platform-price-list.ts";
export * from "./platform-pricing.ts";
export * from "./price-components.ts";
export * from "./price-ids.ts";
export * from "./price-usage.ts";
export * from "./pricing-audit.ts";
export * from "./review-differences.ts";
