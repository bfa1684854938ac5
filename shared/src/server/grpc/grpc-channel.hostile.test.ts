import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  closeStandIns,
  cuttableProxy,
  echo,
  failureOf,
  framed,
  frameOf,
  PATH,
  soon,
  standIn,
  tarpit,
} from "../../../../test/setup/grpc-stand-in.ts";
import { grpcChannel } from "./grpc-channel.ts";
import { FRAME_HEADER_BYTES, GrpcStatus } from "./grpc-status.ts";

afterEach(closeStandIns);

/** How late a call may settle after its deadline, on a machine shared with other tests. */
const MARGIN_MS = 700;
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const textOf = (body: Buffer) => body.subarray(FRAME_HEADER_BYTES).toString();

/** Conditions a real network has and the emulators never show, each as grpc-js 1.14 meets it. */
describe("our gRPC calls on a hostile network", () => {
  it.each([
    ["a TLS handshake", "https"],
    ["the server's SETTINGS", "http"],
  ])("settle DEADLINE_EXCEEDED at their deadline while %s never comes", async (_, scheme) => {
    const pit = await tarpit();
    closers.push(pit.close);
    const channel = grpcChannel({ origin: `${scheme}://127.0.0.1:${pit.port}`, connectTimeoutMs: 60_000 });
    const started = Date.now();
    expect(await failureOf(channel.unary(PATH, frameOf("x"), {}, started + 300))).toMatchObject({
      code: GrpcStatus.DEADLINE_EXCEEDED,
    });
    expect(Date.now() - started).toBeLessThan(300 + MARGIN_MS);
  });

  it("close at once, without waiting for a handshake that never completes", async () => {
    const pit = await tarpit();
    closers.push(pit.close);
    const channel = grpcChannel({ origin: `https://127.0.0.1:${pit.port}`, connectTimeoutMs: 60_000 });
    await failureOf(channel.unary(PATH, frameOf("x"), {}, Date.now() + 200));
    const started = Date.now();
    await channel.close();
    expect(Date.now() - started).toBeLessThan(MARGIN_MS);
    await expect.poll(() => pit.sockets[0]?.destroyed).toBe(true);
  });

  it("give up a connection that is not ready within the connect timeout, and the next call tries a new one", async () => {
    const pit = await tarpit();
    closers.push(pit.close);
    const channel = grpcChannel({ origin: `https://127.0.0.1:${pit.port}`, connectTimeoutMs: 300 });
    const started = Date.now();
    // The connect timeout fails the call before its own deadline, as UNAVAILABLE, which is retried.
    expect(await failureOf(channel.unary(PATH, frameOf("x"), {}, started + 5_000))).toMatchObject({
      code: GrpcStatus.UNAVAILABLE,
    });
    expect(Date.now() - started).toBeLessThan(300 + MARGIN_MS);
    expect(pit.sockets).toHaveLength(1);
    await failureOf(channel.unary(PATH, frameOf("x"), {}, Date.now() + 100));
    expect(pit.sockets).toHaveLength(2);
  });

  it.each([
    ["before", false],
    ["after", true],
  ])(
    "fail UNAVAILABLE, 'Connection dropped', when the connection is cut %s the answer's headers",
    async (_, headersFirst) => {
      let arrived = 0;
      const { origin } = await standIn((stream, headers, body) => {
        arrived++;
        if (textOf(body) === "answer") echo(stream, headers, body);
        else if (headersFirst) stream.respond({ ":status": 200, "content-type": "application/grpc" });
      });
      const proxy = await cuttableProxy(origin);
      closers.push(proxy.close);
      const channel = grpcChannel({ origin: proxy.origin });
      const call = failureOf(channel.unary(PATH, frameOf("held"), {}, soon()));
      await expect.poll(() => arrived).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      proxy.cut();
      const error = await call;
      expect(error).toMatchObject({ code: GrpcStatus.UNAVAILABLE });
      expect(error.details).toMatch(/^Connection dropped/);
      // The retry goes out on a new connection.
      expect(String(await channel.unary(PATH, frameOf("answer"), {}, soon()))).toBe("answer");
      expect(proxy.connections()).toBe(2);
      await channel.close();
    },
  );

  it("queue more than Node's default session memory of large requests on a slow reader, and each gets its answer", async () => {
    const server = http2.createServer();
    server.on("stream", (stream) => {
      // Reads nothing for a while: every request waits on the connection's flow control.
      stream.pause();
      let bytes = 0;
      stream.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      stream.on("end", () => {
        stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
        stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
        stream.end(framed(Buffer.from(String(bytes))));
      });
      setTimeout(() => stream.resume(), 400);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    const channel = grpcChannel({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    const body = "x".repeat(5 * 1024 * 1024);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => channel.unary(PATH, frameOf(body), {}, Date.now() + 20_000)),
    );
    expect(answers.map(String)).toEqual(Array(4).fill(String(FRAME_HEADER_BYTES + body.length)));
    await channel.close();
  });

  it("retry a call above a GOAWAY's last stream id on a new connection, and finish the one below it", async () => {
    const { origin, sessions } = await standIn((stream, headers, body) => {
      if (textOf(body) === "below") setTimeout(() => echo(stream, headers, body), 300);
      else if (textOf(body) === "above") stream.session?.goaway(http2.constants.NGHTTP2_NO_ERROR, 1);
      else echo(stream, headers, body);
    });
    const channel = grpcChannel({ origin });
    const below = channel.unary(PATH, frameOf("below"), {}, soon());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const above = await failureOf(channel.unary(PATH, frameOf("above"), {}, soon()));
    expect(above).toMatchObject({ code: GrpcStatus.UNAVAILABLE });
    expect(String(await channel.unary(PATH, frameOf("again"), {}, soon()))).toBe("again");
    expect(String(await below)).toBe("below");
    expect(sessions).toHaveLength(2);
    await channel.close();
  });

  it("send at most one PING per interval however many calls time out, in waves or at once", async () => {
    const { origin, pings } = await standIn(() => undefined);
    const channel = grpcChannel({ origin, minPingIntervalMs: 2_000 });
    for (let wave = 0; wave < 3; wave++) {
      const deadline = Date.now() + 150;
      const calls = Array.from({ length: 10 }, () => failureOf(channel.unary(PATH, frameOf("x"), {}, deadline)));
      for (const failure of await Promise.all(calls)) expect(failure.code).toBe(GrpcStatus.DEADLINE_EXCEEDED);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(pings).toHaveLength(1);
    await channel.close();
  });

  it("double the PING interval after a too_many_pings GOAWAY, and carry on on a new connection", async () => {
    const { origin, pings, sessions } = await standIn((stream, headers, body) => {
      if (textOf(body) === "answer") echo(stream, headers, body);
    });
    const channel = grpcChannel({ origin, minPingIntervalMs: 1_000 });
    expect(await failureOf(channel.unary(PATH, frameOf("x"), {}, Date.now() + 100))).toMatchObject({
      code: GrpcStatus.DEADLINE_EXCEEDED,
    });
    await expect.poll(() => pings.length).toBe(1);
    const pingedAt = Date.now();
    sessions[0]?.goaway(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM, 0, Buffer.from("too_many_pings"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(String(await channel.unary(PATH, frameOf("answer"), {}, soon()))).toBe("answer");
    expect(sessions).toHaveLength(2);
    // About 1.4 s after the first PING, a call times out: a PING was allowed before, not at 2 s now.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1_300 - (Date.now() - pingedAt))));
    await failureOf(channel.unary(PATH, frameOf("x"), {}, Date.now() + 100));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pings).toHaveLength(1);
    await channel.close();
  });
});
