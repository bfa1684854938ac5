// Webhooks: signed events (budgets, reconciliation drift) delivered to the receivers organizations register.
export * from "./deliver-webhook.ts";
export * from "./delivery-list.ts";
export * from "./delivery-queue.ts";
export * from "./delivery-timing.ts";
export * from "./dispatch-events.ts";
export * from "./post-webhook.ts";
export * from "./replay.ts";
export * from "./secret-box.ts";
export * from "./signing.ts";
export * from "./webhook-documents.ts";
export * from "./webhook-events.ts";
export * from "./webhook-input.ts";
export * from "./webhook-store.ts";
export * from "./webhook-view.ts";
