// What the tests, the bench and the command line use of the gateway; its composition root is server.ts.
export * from "./app.ts";
export * from "./auth/organization-access.ts";
export * from "./auth/session/sign-in.ts";
export * from "./auth/session/sign-in-config.ts";
export * from "./env.ts";
export * from "./http/parser-errors.ts";
export * from "./limits/rate-limits.ts";
export * from "./openapi/document.ts";
export * from "./otlp/decode.ts";
export * from "./otlp/firestore-pairing.ts";
export * from "./otlp/memory-pairing.ts";
export * from "./otlp/one-call-once.ts";
export * from "./queue/publisher.ts";
export * from "./routes/console.ts";
export * from "./routes/dashboard.ts";
export * from "./routes/v1/management-routes.ts";
