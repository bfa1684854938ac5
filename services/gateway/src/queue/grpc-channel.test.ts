import { readFileSync } from "node:fs";
import http2, { type Http2Server, type IncomingHttpHeaders, type ServerHttp2Stream } from "node:http2";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { FRAME_HEADER_BYTES, GrpcCallError, GrpcStatus, grpcChannel } from "./grpc-channel.ts";

/**
 * The channel's reaction to what a server may do, against stand-in gRPC servers on Node's http2: the
 * Pub/Sub emulator answers every call well, and it does not speak TLS. Calls to the emulator itself are
 * in test/integration/gateway.publish-calls.test.ts.
 */
const PATH = "/test.Echo/Call";
const fixture = (name: string) => readFileSync(new URL(`../../../../test/fixtures/tls/${name}`, import.meta.url));

type Handler = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, body: Buffer) => void;

const servers: Http2Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server that hands each call's headers and whole request body to `handle`; counts its connections. */
async function standIn(handle: Handler, secure = false) {
  const server = secure
    ? http2.createSecureServer({ key: fixture("localhost-key.pem"), cert: fixture("localhost-cert.pem") })
    : http2.createServer();
  servers.push(server);
  const sessions: http2.ServerHttp2Session[] = [];
  server.on("session", (session) => sessions.push(session));
  server.on("stream", (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => handle(stream, headers, Buffer.concat(chunks)));
    stream.on("error", () => undefined);
  });
  // Sessions a test leaves open are ended with the server.
  server.on("close", () => {
    for (const session of sessions) session.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `${secure ? "https" : "http"}://127.0.0.1:${port}`, sessions };
}

/**
 * A TCP proxy in front of `origin` whose paths can go dead without closing: once `freeze(n)` is called,
 * the bytes the n-th connection carries are dropped, either way.
 */
async function freezableProxy(origin: string) {
  const frozen = new Set<net.Socket>();
  const sockets: net.Socket[] = [];
  const proxy = net.createServer((socket) => {
    sockets.push(socket);
    const upstream = net.connect(Number(new URL(origin).port), "127.0.0.1");
    socket.on("data", (bytes) => frozen.has(socket) || upstream.write(bytes));
    upstream.on("data", (bytes) => frozen.has(socket) || socket.write(bytes));
    for (const end of [socket, upstream]) end.on("error", () => undefined);
    socket.on("close", () => upstream.destroy());
    upstream.on("close", () => socket.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    sockets,
    freeze: (n: number) => frozen.add(sockets[n] as net.Socket),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(resolve);
      }),
  };
}

/** A frame as the channel takes it: room for the header, then the message. */
const frameOf = (text: string) => Buffer.concat([Buffer.alloc(FRAME_HEADER_BYTES), Buffer.from(text)]);
const framed = (message: Buffer) => {
  const header = Buffer.alloc(FRAME_HEADER_BYTES);
  header.writeUInt32BE(message.length, 1);
  return Buffer.concat([header, message]);
};
/** Answers a call with `message` and an OK status, as a gRPC server does. */
const answer = (stream: ServerHttp2Stream, message: Buffer) => {
  stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
  stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
  stream.end(framed(message));
};
const echo: Handler = (stream, _headers, body) => answer(stream, body.subarray(FRAME_HEADER_BYTES));
const soon = () => Date.now() + 5_000;
const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => {
      throw new Error("the call succeeded");
    },
    (error: unknown) => error as GrpcCallError,
  );

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

  it("fails a stream the server refuses as UNAVAILABLE, so that it is retried", async () => {
    const { origin } = await standIn((stream) => stream.close(http2.constants.NGHTTP2_REFUSED_STREAM));
    const channel = grpcChannel({ origin });
    expect(await failureOf(channel.unary(PATH, frameOf("x"), {}, soon()))).toMatchObject({
      code: GrpcStatus.UNAVAILABLE,
    });
    await channel.close();
  });

  it("fails a stream the server cancels as CANCELLED", async () => {
    const { origin } = await standIn((stream) => stream.close(http2.constants.NGHTTP2_CANCEL));
    const channel = grpcChannel({ origin });
    expect(await failureOf(channel.unary(PATH, frameOf("x"), {}, soon()))).toMatchObject({
      code: GrpcStatus.CANCELLED,
    });
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
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
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

  it("opens a new connection after the server sends GOAWAY, and the calls on it succeed", async () => {
    const { origin, sessions } = await standIn(echo);
    const channel = grpcChannel({ origin });
    await channel.unary(PATH, frameOf("before"), {}, soon());
    sessions[0]?.goaway();
    await expect.poll(() => channel.unary(PATH, frameOf("after"), {}, soon()).then(String)).toBe("after");
    expect(sessions).toHaveLength(2);
    await channel.close();
  });

  it("replaces a connection that went silent: a call times out, the PING goes unanswered, the next call works", async () => {
    const { origin } = await standIn(echo);
    const path = await freezableProxy(origin);
    const channel = grpcChannel({ origin: path.origin, pingTimeoutMs: 200 });
    expect(String(await channel.unary(PATH, frameOf("first"), {}, soon()))).toBe("first");
    path.freeze(0);
    expect(await failureOf(channel.unary(PATH, frameOf("lost"), {}, Date.now() + 300))).toMatchObject({
      code: GrpcStatus.DEADLINE_EXCEEDED,
    });
    await expect.poll(() => path.sockets[0]?.destroyed, { timeout: 3_000 }).toBe(true);
    expect(String(await channel.unary(PATH, frameOf("found"), {}, soon()))).toBe("found");
    expect(path.sockets).toHaveLength(2);
    await channel.close();
    await path.close();
  });

  it("PINGs a connection idle for a while with its next call, and fails that call early when it went silent", async () => {
    const { origin } = await standIn(echo);
    const path = await freezableProxy(origin);
    const channel = grpcChannel({ origin: path.origin, pingTimeoutMs: 200, idleCheckMs: 50 });
    expect(String(await channel.unary(PATH, frameOf("first"), {}, soon()))).toBe("first");
    path.freeze(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    // Long before its own deadline: UNAVAILABLE, which the caller retries on a new connection.
    expect(await failureOf(channel.unary(PATH, frameOf("lost"), {}, Date.now() + 10_000))).toMatchObject({
      code: GrpcStatus.UNAVAILABLE,
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(String(await channel.unary(PATH, frameOf("found"), {}, soon()))).toBe("found");
    await channel.close();
    await path.close();
  });

  it("keeps a live connection when many calls time out at once, and its other calls get their answers", async () => {
    const { origin, sessions } = await standIn((stream, headers, body) => {
      if (body.subarray(FRAME_HEADER_BYTES).toString() === "slow") setTimeout(() => echo(stream, headers, body), 800);
    });
    const channel = grpcChannel({ origin, pingTimeoutMs: 2_000 });
    const deadline = Date.now() + 300;
    const timingOut = Array.from({ length: 15 }, () => failureOf(channel.unary(PATH, frameOf("never"), {}, deadline)));
    const answered = channel.unary(PATH, frameOf("slow"), {}, soon());
    for (const failure of await Promise.all(timingOut)) {
      expect(failure).toMatchObject({ code: GrpcStatus.DEADLINE_EXCEEDED });
    }
    expect(String(await answered)).toBe("slow");
    expect(sessions).toHaveLength(1);
    await channel.close();
  });

  it("speaks TLS to an https origin and carries the credentials' headers on every call", async () => {
    const authorizations: unknown[] = [];
    const { origin } = await standIn((stream, headers, body) => {
      authorizations.push(headers.authorization);
      echo(stream, headers, body);
    }, true);
    let token = 0;
    const channel = grpcChannel({
      origin: origin.replace("127.0.0.1", "localhost"),
      tls: { ca: fixture("localhost-cert.pem") },
      callHeaders: async () => ({ authorization: `Bearer token-${++token}` }),
    });
    await channel.unary(PATH, frameOf("a"), {}, soon());
    await channel.unary(PATH, frameOf("b"), {}, soon());
    expect(authorizations).toEqual(["Bearer token-1", "Bearer token-2"]);
    await channel.close();
  });

  it("fails as UNAVAILABLE, so that it is retried, when no credentials could be had", async () => {
    const { origin } = await standIn(echo);
    const channel = grpcChannel({
      origin,
      callHeaders: () => Promise.reject(new Error("metadata server unreachable")),
    });
    const error = await failureOf(channel.unary(PATH, frameOf("x"), {}, soon()));
    expect(error).toMatchObject({ code: GrpcStatus.UNAVAILABLE });
    expect(error.details).toMatch(/metadata server unreachable/);
  });

  it("bounds the wait for credentials by the call's deadline", async () => {
    const { origin } = await standIn(echo);
    const channel = grpcChannel({ origin, callHeaders: () => new Promise(() => {}) });
    const started = Date.now();
    expect(await failureOf(channel.unary(PATH, frameOf("x"), {}, started + 200))).toMatchObject({
      code: GrpcStatus.DEADLINE_EXCEEDED,
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    await channel.close();
  });

  it("waits at close for a call still getting its credentials, which then goes out", async () => {
    const seen: string[] = [];
    const { origin } = await standIn((stream, headers, body) => {
      seen.push(String(headers.authorization));
      echo(stream, headers, body);
    });
    const channel = grpcChannel({
      origin,
      callHeaders: () => new Promise((resolve) => setTimeout(() => resolve({ authorization: "Bearer late" }), 200)),
    });
    const call = channel.unary(PATH, frameOf("x"), {}, soon());
    await channel.close();
    expect(seen).toEqual(["Bearer late"]);
    expect(String(await call)).toBe("x");
  });

  it("closes once the calls under way have their answers", async () => {
    const { origin, sessions } = await standIn((stream, headers, body) => {
      setTimeout(() => echo(stream, headers, body), 200);
    });
    const channel = grpcChannel({ origin });
    const call = channel.unary(PATH, frameOf("late"), {}, soon());
    await expect.poll(() => sessions.length).toBe(1);
    await channel.close();
    expect(String(await call)).toBe("late");
    await expect.poll(() => sessions[0]?.closed || sessions[0]?.destroyed).toBe(true);
  });
});
