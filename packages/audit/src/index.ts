// The audit log: who changed what, recorded with the change itself (docs/decisions/0024).
export * from "./audit-entry.ts";
export * from "./audit-log.ts";
export * from "./without-secrets.ts";
