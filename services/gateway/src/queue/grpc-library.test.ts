import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

describe("the gateway's gRPC library", () => {
  it("is the very one the Pub/Sub client calls through, so its Metadata is the client's", () => {
    const require = createRequire(import.meta.url);
    const pubsub = createRequire(require.resolve("@google-cloud/pubsub"));
    const gax = createRequire(pubsub.resolve("google-gax"));
    expect(require.resolve("@grpc/grpc-js")).toBe(gax.resolve("@grpc/grpc-js"));
  });
});
