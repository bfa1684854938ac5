// Organizations and keys: who may send and read, and the settings each organization keeps.
export * from "./api-key-store.ts";
export * from "./api-keys.ts";
export * from "./cached-key-store.ts";
export * from "./dimension-names.ts";
export * from "./dimensions.ts";
export * from "./dimensions-store.ts";
export * from "./key-last-used.ts";
export * from "./key-store.ts";
export * from "./keys-database.ts";
export * from "./known-key-hashes.ts";
export * from "./management-schemas.ts";
export * from "./organization-documents.ts";
export * from "./organization-limits.ts";
export * from "./organizations.ts";
export * from "./otel-settings.ts";
export * from "./roles.ts";
