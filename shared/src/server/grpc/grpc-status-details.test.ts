import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import protobuf from "protobufjs";
import { afterEach, describe, expect, it } from "vitest";
import { closeStandIns, failureOf, frameOf, PATH, soon, standIn } from "../../../../test/setup/grpc-stand-in.ts";
import { grpcChannel } from "./grpc-channel.ts";
import { GrpcStatus } from "./grpc-status.ts";

afterEach(closeStandIns);

// google-gax's own descriptors of google.rpc.Status and its details, to write what a Google server sends.
const require = createRequire(import.meta.url);
const root = protobuf.Root.fromJSON(require(join(dirname(require.resolve("google-gax")), "../protos/status.json")));
const type = (name: string) => root.lookupType(name);
const any = (name: string, value: object) => ({
  type_url: `type.googleapis.com/${name}`,
  value: type(name).encode(value).finish(),
});

describe("a failed call's grpc-status-details-bin", () => {
  it("is decoded as google-gax decodes it: ErrorInfo promoted, RetryInfo's delay in milliseconds", async () => {
    const status = type("google.rpc.Status")
      .encode({
        code: GrpcStatus.RESOURCE_EXHAUSTED,
        message: "quota",
        details: [
          any("google.rpc.ErrorInfo", {
            reason: "RATE_LIMIT_EXCEEDED",
            domain: "googleapis.com",
            metadata: { a: "b" },
          }),
          any("google.rpc.RetryInfo", { retryDelay: { seconds: 2, nanos: 500_000_000 } }),
        ],
      })
      .finish();
    const { origin } = await standIn((stream) =>
      stream.respond(
        {
          ":status": 200,
          "content-type": "application/grpc",
          "grpc-status": String(GrpcStatus.RESOURCE_EXHAUSTED),
          "grpc-message": "quota",
          "grpc-status-details-bin": Buffer.from(status).toString("base64"),
        },
        { endStream: true },
      ),
    );
    const channel = grpcChannel({ origin });
    const error = await failureOf(channel.unary(PATH, frameOf("x"), {}, soon()));
    expect(error).toMatchObject({
      code: GrpcStatus.RESOURCE_EXHAUSTED,
      details: "quota",
      reason: "RATE_LIMIT_EXCEEDED",
      domain: "googleapis.com",
      errorInfoMetadata: { a: "b" },
      retryDelayMs: 2_500,
    });
    expect(error.statusDetails).toHaveLength(2);
    await channel.close();
  });

  it("is left out when the server sent none, or bytes that are not a status", async () => {
    const { origin } = await standIn((stream) =>
      stream.respond(
        { ":status": 200, "content-type": "application/grpc", "grpc-status": "14", "grpc-status-details-bin": "%%" },
        { endStream: true },
      ),
    );
    const channel = grpcChannel({ origin });
    const error = await failureOf(channel.unary(PATH, frameOf("x"), {}, soon()));
    expect(error.code).toBe(GrpcStatus.UNAVAILABLE);
    expect(error.statusDetails).toBeUndefined();
    expect(error.retryDelayMs).toBeUndefined();
    await channel.close();
  });
});
