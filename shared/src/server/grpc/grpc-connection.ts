import http2, { type ClientHttp2Session, type SecureClientSessionOptions } from "node:http2";
import type { Duplex } from "node:stream";

/**
 * The HTTP/2 connection under grpc-channel.ts, kept as grpc-js 1.14 keeps its transport
 * (`transport.js`, `subchannel.js`): unbounded session memory, a connection that is not ready (its
 * server's SETTINGS) within a connect timeout given up so that the next call opens another, PINGs rate
 * limited and their interval doubled after a `too_many_pings` GOAWAY, and a connection that fails under
 * its calls marked dropped, so that they fail UNAVAILABLE ("Connection dropped") and are retried.
 */

export interface ConnectionOptions {
  /** `http://host:port` for a plaintext server (the emulator), `https://host:port` for TLS. */
  origin: string;
  /** TLS settings beyond Node's defaults (a test's own certificate authority, a server name). */
  tls?: Pick<SecureClientSessionOptions, "ca" | "servername">;
  /** Opens the socket instead of Node (a canary routing through a proxy it can cut). */
  createConnection?: (origin: URL) => Duplex;
  /** How long a connection may take to be ready (TCP, TLS, the server's SETTINGS); 20 s by default. */
  connectTimeoutMs?: number;
  /** How long a PING may take before the connection is given up as dead; 5 s by default. */
  pingTimeoutMs?: number;
  /** The least time between two PINGs of the channel; doubled after each `too_many_pings`; 10 s by default. */
  minPingIntervalMs?: number;
  /** A connection idle this long is PINGed alongside its next call; 30 s by default. */
  idleCheckMs?: number;
}

/** One HTTP/2 connection and how many calls are on it: it holds the process open only while one is. */
export interface Connection {
  session: ClientHttp2Session;
  calls: number;
  /** When its last call began. */
  usedAt: number;
  /** A PING is out: one at a time, however many calls time out together. */
  checking: boolean;
  /** It failed under its calls (reset, error, a PING or a connect that timed out), rather than closing in order. */
  dropped: boolean;
}

/** What a server sends with GOAWAY ENHANCE_YOUR_CALM when it got more PINGs than it allows (gRPC A8). */
const TOO_MANY_PINGS = Buffer.from("too_many_pings", "ascii");

export interface Connections {
  /** The connection to call on, opened when there is none usable. */
  get(): Connection;
  /** Stops handing out `lost`: the next call opens a new connection. */
  forget(lost: Connection): void;
  /** A call begins on `used`; a connection idle for a while is checked with it. */
  begin(used: Connection): void;
  end(used: Connection): void;
  /** PINGs `connection` (rate limited) and destroys it when the PING goes unanswered. */
  check(connection: Connection): void;
  /** Closes the current connection in order. */
  close(): Promise<void>;
  /** The least time between PINGs now: it doubles after each `too_many_pings`. */
  readonly minPingIntervalMs: number;
}

export function grpcConnections(options: ConnectionOptions): Connections {
  const connectTimeoutMs = options.connectTimeoutMs ?? 20_000;
  const pingTimeoutMs = options.pingTimeoutMs ?? 5_000;
  const idleCheckMs = options.idleCheckMs ?? 30_000;
  let minPingIntervalMs = options.minPingIntervalMs ?? 10_000;
  /** When the channel last sent a PING, on any connection (grpc-js keeps its keepalive time per subchannel). */
  let pingedAt = Number.NEGATIVE_INFINITY;
  let current: Connection | undefined;
  const origin = new URL(options.origin);

  const forget = (lost: Connection) => {
    if (current === lost) current = undefined;
  };
  const dropped = (lost: Connection) => {
    lost.dropped = true;
    forget(lost);
  };
  const open = (): Connection => {
    const session = http2.connect(origin, {
      ...options.tls,
      ...(options.createConnection ? { createConnection: () => options.createConnection?.(origin) as Duplex } : {}),
      // As grpc-js: Node's default (10 MB) refuses new streams once that much is queued on a slow connection.
      maxSessionMemory: Number.MAX_SAFE_INTEGER,
    });
    const opened: Connection = { session, calls: 0, usedAt: Date.now(), checking: false, dropped: false };
    // Not ready in time (a handshake that never completes): given up, so the next call opens another.
    const connecting = setTimeout(() => {
      dropped(opened);
      session.destroy(new Error(`no connection within ${connectTimeoutMs} ms`));
    }, connectTimeoutMs);
    connecting.unref();
    session.once("remoteSettings", () => clearTimeout(connecting));
    // A lost connection fails its own streams (each sees its close); new calls open a new one.
    session.on("error", () => dropped(opened));
    session.on("close", () => {
      clearTimeout(connecting);
      dropped(opened);
    });
    session.on("goaway", (code: number, _lastStreamId: number, data?: Buffer) => {
      forget(opened);
      if (code === http2.constants.NGHTTP2_ENHANCE_YOUR_CALM && data?.equals(TOO_MANY_PINGS)) minPingIntervalMs *= 2;
    });
    session.unref();
    return opened;
  };

  /**
   * A connection that does not answer a PING within pingTimeoutMs is destroyed: its calls fail UNAVAILABLE
   * and are retried on a new one. A PING that fails outright only means the connection is already closing,
   * which replaces it anyway. At most one PING per minPingIntervalMs, however many calls time out.
   */
  const check = (connection: Connection) => {
    const { session } = connection;
    if (connection.checking || session.closed || session.destroyed) return;
    const now = Date.now();
    if (now - pingedAt < minPingIntervalMs) return;
    pingedAt = now;
    connection.checking = true;
    const timer = setTimeout(() => {
      connection.dropped = true;
      session.destroy();
    }, pingTimeoutMs);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      connection.checking = false;
    };
    try {
      if (!session.ping(done)) done();
    } catch {
      done();
    }
  };

  return {
    get() {
      if (current && !current.session.closed && !current.session.destroyed) return current;
      current = open();
      return current;
    },
    forget,
    begin(used) {
      if (used.calls++ === 0) used.session.ref();
      const now = Date.now();
      if (now - used.usedAt > idleCheckMs) check(used);
      used.usedAt = now;
    },
    end(used) {
      if (--used.calls === 0 && !used.session.destroyed) used.session.unref();
    },
    check,
    async close() {
      const last = current?.session;
      current = undefined;
      if (!last || last.destroyed) return;
      // A connection still connecting (a handshake that never completes) has nothing to finish in order.
      if (last.connecting) last.destroy();
      else await new Promise<void>((resolve) => last.close(() => resolve()));
    },
    get minPingIntervalMs() {
      return minPingIntervalMs;
    },
  };
}
