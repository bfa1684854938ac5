import { readFileSync } from "node:fs";
import http2, { type Http2Server, type IncomingHttpHeaders, type ServerHttp2Stream } from "node:http2";
import net, { type AddressInfo } from "node:net";
import { FRAME_HEADER_BYTES, type GrpcCallError } from "@usage-ingestion/shared/server";

/**
 * Stand-in gRPC servers on Node's http2, for the channel's reaction to what a server may do: the Pub/Sub
 * emulator answers every call well, and it does not speak TLS. Calls to the emulator itself are in
 * test/integration/gateway.publish-calls.test.ts.
 */
export const PATH = "/test.Echo/Call";
export const fixture = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url));

export type Handler = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, body: Buffer) => void;

const servers: Http2Server[] = [];
/** Closes every stand-in started so far: each test file calls it after each test. */
export const closeStandIns = async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
};

/** A server that hands each call's headers and whole request body to `handle`; counts its connections and PINGs. */
export async function standIn(handle: Handler, secure = false) {
  const server = secure
    ? http2.createSecureServer({ key: fixture("localhost-key.pem"), cert: fixture("localhost-cert.pem") })
    : http2.createServer();
  servers.push(server);
  const sessions: http2.ServerHttp2Session[] = [];
  /** The session of each PING received, in order. */
  const pings: http2.ServerHttp2Session[] = [];
  server.on("session", (session) => {
    sessions.push(session);
    session.on("ping", () => pings.push(session));
  });
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
  return { origin: `${secure ? "https" : "http"}://127.0.0.1:${port}`, sessions, pings };
}

/**
 * A TCP proxy in front of `origin` whose paths can go dead without closing: once `freeze(n)` is called,
 * the bytes the n-th connection carries are dropped, either way.
 */
export async function freezableProxy(origin: string) {
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
export const frameOf = (text: string) => Buffer.concat([Buffer.alloc(FRAME_HEADER_BYTES), Buffer.from(text)]);
export const framed = (message: Buffer) => {
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
export const echo: Handler = (stream, _headers, body) => answer(stream, body.subarray(FRAME_HEADER_BYTES));
export const soon = () => Date.now() + 5_000;
export const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => {
      throw new Error("the call succeeded");
    },
    (error: unknown) => error as GrpcCallError,
  );

/** A TCP server that accepts every connection and never answers a byte: a handshake that never completes. */
export async function tarpit() {
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => {
    sockets.push(socket);
    socket.on("error", () => undefined);
    // Reads and drops what it is sent, so that it sees the other end close.
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    sockets,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(resolve);
      }),
  };
}

/** A TCP proxy in front of `origin` whose connections can be cut, both ways at once, with `cut()`. */
export async function cuttableProxy(origin: string) {
  const pairs: Array<[net.Socket, net.Socket]> = [];
  const proxy = net.createServer((socket) => {
    const upstream = net.connect(Number(new URL(origin).port), "127.0.0.1");
    pairs.push([socket, upstream]);
    socket.pipe(upstream).pipe(socket);
    for (const end of [socket, upstream]) end.on("error", () => undefined);
    socket.on("close", () => upstream.destroy());
    upstream.on("close", () => socket.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    connections: () => pairs.length,
    /** Resets every connection so far, as a middlebox dropping them does. */
    cut: () => {
      for (const [socket, upstream] of pairs) {
        socket.resetAndDestroy();
        upstream.resetAndDestroy();
      }
    },
    close: () =>
      new Promise((resolve) => {
        for (const [socket, upstream] of pairs) {
          socket.destroy();
          upstream.destroy();
        }
        proxy.close(resolve);
      }),
  };
}
