import http2, { type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders } from "node:http2";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import {
  closeStandIns,
  echo,
  failureOf,
  framed,
  frameOf,
  PATH,
  soon,
  standIn,
} from "../../../../test/setup/grpc-stand-in.ts";
import { grpcChannel } from "./grpc-channel.ts";
import { FRAME_HEADER_BYTES, GrpcCallError, GrpcStatus } from "./grpc-status.ts";

afterEach(closeStandIns);

/** Calls and their statuses against stand-in servers (test/setup/grpc-stand-in.ts). */
describe("a unary gRPC call on our HTTP/2 channel", () => {
  it("sends one framed request with the gRPC headers and the time left, and reads the one message back", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const { origin } = await standIn((stream, headers, body) => {
      seen.push(headers);
      echo(stream, headers, body);
    });
    const channel = grpcChannel({ origin });
    const reply = await channel.unary(PATH, frameOf("héllo"), { "x-goog-request-params": "topic=t" }, soon());
    expect(reply.toString()).toBe("héllo");
    expect(seen[0]).toMatchObject({
      ":method": "POST",
      ":path": PATH,
      "content-type": "application/grpc",
      te: "trailers",
      "x-goog-request-params": "topic=t",
    });
    const timeout = /^(\d+)m$/.exec(String(seen[0]?.["grpc-timeout"]));
    expect(Number(timeout?.[1])).toBeGreaterThan(4_000);
    expect(Number(timeout?.[1])).toBeLessThanOrEqual(5_000);
    await channel.close();
  });

  it("keeps one connection for calls in a row and at once", async () => {
    const { origin, sessions } = await standIn(echo);
    const channel = grpcChannel({ origin });
    await channel.unary(PATH, frameOf("1"), {}, soon());
    const replies = await Promise.all(["2", "3", "4"].map((n) => channel.unary(PATH, frameOf(n), {}, soon())));
    expect(replies.map(String)).toEqual(["2", "3", "4"]);
    expect(sessions).toHaveLength(1);
    await channel.close();
  });

  it("fails with the server's status and its percent-encoded message, from a trailers-only answer", async () => {
    const { origin } = await standIn((stream) =>
      stream.respond(
        { ":status": 200, "content-type": "application/grpc", "grpc-status": "5", "grpc-message": "no%20such topic" },
        { endStream: true },
      ),
    );
    const channel = grpcChannel({ origin });
    const error = await failureOf(channel.unary(PATH, frameOf("x"), {}, soon()));
    expect(error).toBeInstanceOf(GrpcCallError);
    expect(error).toMatchObject({ code: GrpcStatus.NOT_FOUND, details: "no such topic" });
    await channel.close();
  });

  it("fails with the status in the trailers after headers, and ignores a message sent with it", async () => {
    const { origin } = await standIn((stream) => {
      stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
      stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "8", "grpc-message": "slow down" }));
      stream.end(framed(Buffer.from("ignored")));
    });
    const channel = grpcChannel({ origin });
    expect(await failureOf(channel.unary(PATH, frameOf("x"), {}, soon()))).toMatchObject({
      code: GrpcStatus.RESOURCE_EXHAUSTED,
      details: "slow down",
    });
    await channel.close();
  });

  it.each([
    [503, GrpcStatus.UNAVAILABLE],
    [429, GrpcStatus.UNAVAILABLE],
    [401, GrpcStatus.UNAUTHENTICATED],
    [404, GrpcStatus.UNIMPLEMENTED],
    [500, GrpcStatus.UNKNOWN],
  ])("maps HTTP status %i without a gRPC status to code %i", async (httpStatus, code) => {
    const { origin } = await standIn((stream) => stream.respond({ ":status": httpStatus }, { endStream: true }));
    const channel = grpcChannel({ origin });
    expect(await failureOf(channel.unary(PATH, frameOf("x"), {}, soon()))).toMatchObject({ code });
    await channel.close();
  });

  it.each([
    ["refuses", http2.constants.NGHTTP2_REFUSED_STREAM, GrpcStatus.UNAVAILABLE],
    ["cancels", http2.constants.NGHTTP2_CANCEL, GrpcStatus.CANCELLED],
  ])("fails a stream the server %s (reset code %i) with code %i; UNAVAILABLE is retried", async (_, reset, code) => {
    const { origin } = await standIn((stream) => stream.close(reset));
    const channel = grpcChannel({ origin });
    expect(await failureOf(channel.unary(PATH, frameOf("x"), {}, soon()))).toMatchObject({ code });
    await channel.close();
  });

  it("fails an answer without a gRPC status as INTERNAL, and one that is not gRPC at all as UNKNOWN", async () => {
    const { origin } = await standIn((stream, _headers, body) => {
      const grpc = body.subarray(FRAME_HEADER_BYTES).toString() === "grpc";
      stream.respond({ ":status": 200, "content-type": grpc ? "application/grpc" : "text/html" });
      stream.end(grpc ? framed(Buffer.from("no status")) : "<html></html>");
    });
    const channel = grpcChannel({ origin });
    expect(await failureOf(channel.unary(PATH, frameOf("grpc"), {}, soon()))).toMatchObject({
      code: GrpcStatus.INTERNAL,
    });
    expect(await failureOf(channel.unary(PATH, frameOf("html"), {}, soon()))).toMatchObject({
      code: GrpcStatus.UNKNOWN,
    });
    await channel.close();
  });

  it("refuses an answer that is not one whole uncompressed message", async () => {
    const answers = [
      Buffer.from([0, 0, 0, 0, 9, 1, 2]),
      Buffer.from([1, 0, 0, 0, 1, 7]),
      Buffer.from([0, 0, 0, 0, 1, 7, 0, 0, 0, 0, 1, 7]),
    ];
    const { origin } = await standIn((stream) => {
      stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
      stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
      stream.end(answers.shift());
    });
    const channel = grpcChannel({ origin });
    for (let n = 0; n < 3; n++) {
      expect(await failureOf(channel.unary(PATH, frameOf("x"), {}, soon()))).toMatchObject({
        code: GrpcStatus.INTERNAL,
      });
    }
    await channel.close();
  });

  it("fails an unreachable server as UNAVAILABLE", async () => {
    const { origin } = await standIn(echo);
    await closeStandIns();
    const channel = grpcChannel({ origin });
    const error = await failureOf(channel.unary(PATH, frameOf("x"), {}, soon()));
    expect(error).toMatchObject({ code: GrpcStatus.UNAVAILABLE });
    expect(error.details).toMatch(/ECONNREFUSED/);
  });

  it("cancels a call the server does not answer in time, and fails it as DEADLINE_EXCEEDED", async () => {
    const cancelled: number[] = [];
    const { origin } = await standIn((stream) => stream.on("close", () => cancelled.push(stream.rstCode)));
    const channel = grpcChannel({ origin });
    const started = Date.now();
    const error = await failureOf(channel.unary(PATH, frameOf("x"), {}, started + 300));
    expect(error).toMatchObject({ code: GrpcStatus.DEADLINE_EXCEEDED });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    await expect.poll(() => cancelled).toEqual([http2.constants.NGHTTP2_CANCEL]);
    await channel.close();
  });

  it("does not send a call whose deadline has passed", async () => {
    const calls: string[] = [];
    const { origin } = await standIn((stream, headers, body) => {
      calls.push(String(headers[":path"]));
      echo(stream, headers, body);
    });
    const channel = grpcChannel({ origin });
    expect(await failureOf(channel.unary(PATH, frameOf("x"), {}, Date.now() - 1))).toMatchObject({
      code: GrpcStatus.DEADLINE_EXCEEDED,
    });
    expect(calls).toEqual([]);
  });

  it("leaves a finished call's frame to the garbage collector while its stream lives on", async () => {
    // A closed stream can outlive its call until a full collection; its frame must not live on with it.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const streams: ClientHttp2Stream[] = [];
    // Every stream the channel opens is kept here, as a closed stream may be kept until a full collection.
    const probe = http2.connect("http://127.0.0.1:9").on("error", () => undefined);
    const prototype = Object.getPrototypeOf(probe);
    probe.destroy();
    const request = prototype.request as ClientHttp2Session["request"];
    prototype.request = function (this: ClientHttp2Session, ...args: Parameters<ClientHttp2Session["request"]>) {
      const stream = request.apply(this, args);
      streams.push(stream);
      return stream;
    };
    try {
      const { origin } = await standIn(echo);
      const channel = grpcChannel({ origin });
      // The frame is made and let go inside: only the weak reference to it is kept here.
      const sent = (() => {
        const frame = frameOf("x".repeat(64 * 1024));
        return { frame: new WeakRef(frame), reply: channel.unary(PATH, frame, {}, soon()) };
      })();
      expect((await sent.reply).length).toBe(64 * 1024);
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      expect(streams).toHaveLength(1);
      expect(sent.frame.deref()).toBeUndefined();
      await channel.close();
    } finally {
      prototype.request = request;
    }
  });
});
