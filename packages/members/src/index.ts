// Members: people in organizations, their roles and invitations, the last owner kept.
export * from "./emails.ts";
export * from "./first-owner.ts";
export * from "./invitations.ts";
export * from "./member-documents.ts";
export * from "./member-errors.ts";
export * from "./member-rules.ts";
export * from "./member-store.ts";
