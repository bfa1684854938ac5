// Server-only helpers (Node built-ins, process output). The contract itself is in the package's main entry,
// which runs anywhere: browsers, edge runtimes, Node.
export * from "./config.ts";
export * from "./etag.ts";
export * from "./firestore/commit-wire.ts";
export * from "./firestore/commits-transport.ts";
export * from "./firestore/firestore-client-commits.ts";
export * from "./firestore/firestore-commits.ts";
export * from "./firestore/firestore-endpoint.ts";
export * from "./firestore-errors.ts";
export * from "./grpc/api-client-header.ts";
export * from "./grpc/grpc-channel.ts";
export * from "./grpc/retry-delays.ts";
export * from "./hash.ts";
export * from "./log-fields.ts";
export * from "./log-format.ts";
export * from "./logger.ts";
export * from "./pubsub/publish-batcher.ts";
export * from "./pubsub/publish-wire.ts";
export * from "./pubsub/pubsub-batcher.ts";
export * from "./pubsub/pubsub-client-batcher.ts";
export * from "./pubsub/push-event.ts";
export * from "./signed-tokens.ts";
export * from "./stdout-lines.ts";
export * from "./text-logger.ts";
export * from "./ttl-cache.ts";
