import http2, { type ClientHttp2Stream } from "node:http2";
import { type Connection, type ConnectionOptions, grpcConnections } from "./grpc-connection.ts";
import {
  decodeDetails,
  FRAME_HEADER_BYTES,
  GrpcCallError,
  GrpcStatus,
  responseMessage,
  statusOfHttp,
  statusOfReset,
} from "./grpc-status.ts";
import { decodeStatusDetails } from "./grpc-status-details.ts";

export { FRAME_HEADER_BYTES, GrpcCallError, GrpcStatus } from "./grpc-status.ts";

/**
 * Unary gRPC calls over one HTTP/2 connection, on Node's own http2 (the gRPC over HTTP/2 protocol,
 * https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md): a request frame out, one response
 * frame and a status back. It does only what the gateway's one call needs: no compression, no
 * streaming, no load balancing. It replaced grpc-js for the publish call because grpc-js's per-call
 * machinery cost the gateway more CPU than all of its own work per request (docs/decisions/0001-publish-on-nodes-http2.md).
 *
 * The connection (grpc-connection.ts) is opened on the first call and again after it is lost or the
 * server sends GOAWAY; a call settles by its deadline whatever the network does, and is then cancelled
 * and its connection checked with a (rate-limited) PING, so a connection that died silently is replaced
 * rather than waited on. What happens under a dropped connection, a stalled handshake or a slow reader
 * is what grpc-js 1.14 does (docs/decisions/0016-production-safe-transports.md).
 */

export interface GrpcChannelOptions extends ConnectionOptions {
  /** Headers every call carries, such as its authorization; the auth library caches its token. */
  callHeaders?: () => Promise<Record<string, string>>;
}

export interface GrpcChannel {
  /**
   * Calls `path` with `frame`, whose first FRAME_HEADER_BYTES are left for the frame header and the rest
   * is the encoded request; resolves with the encoded response message, or rejects with a GrpcCallError.
   * `deadline` is a Date.now() time: the server is told it, and the call settles by then whatever the
   * network does (a handshake that never completes, a connection that never answers).
   */
  unary(path: string, frame: Buffer, headers: Record<string, string>, deadline: number): Promise<Buffer>;
  /** Closes the connection once the calls under way have ended. */
  close(): Promise<void>;
}

export function grpcChannel(options: GrpcChannelOptions): GrpcChannel {
  const connections = grpcConnections(options);
  /** Calls from unary() to their end, credentials included: close() waits for them. */
  let active = 0;
  const idle = new Set<() => void>();

  /**
   * A call's stream, opened, and its answer; the stream is undefined when it could not be opened (the
   * answer then says why). Nothing in here sees the request frame: see `call`.
   */
  const open = (path: string, extra: Record<string, string>, deadline: number) => {
    let opened: ClientHttp2Stream | undefined;
    const answer = new Promise<Buffer>((resolve, reject) => {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        reject(new GrpcCallError(GrpcStatus.DEADLINE_EXCEEDED, "the deadline passed before the call"));
        return;
      }
      let used: Connection | undefined;
      let stream: ClientHttp2Stream;
      try {
        used = connections.get();
        stream = used.session.request({
          ...extra,
          ":method": "POST",
          ":path": path,
          "content-type": "application/grpc",
          te: "trailers",
          "grpc-accept-encoding": "identity",
          "grpc-timeout": `${Math.min(remaining, 99_999_999)}m`,
        });
      } catch (error) {
        // A connection that is closing refuses new streams at once: the next attempt opens a new one.
        if (used) connections.forget(used);
        reject(new GrpcCallError(GrpcStatus.UNAVAILABLE, (error as Error).message));
        return;
      }
      const on = used;
      connections.begin(on);
      const chunks: Buffer[] = [];
      let httpStatus = 0;
      let contentType: string | undefined;
      let isGrpc = false;
      let grpcStatus: unknown;
      let grpcMessage: unknown;
      let grpcDetails: unknown;
      let failure: Error | undefined;
      let settled = false;
      // The deadline settles the call by itself: a stream on a connection that never completes its
      // handshake may not close until the socket does (minutes on a real network).
      const timer = setTimeout(() => {
        settled = true;
        reject(new GrpcCallError(GrpcStatus.DEADLINE_EXCEEDED, "the deadline passed"));
        stream.close(http2.constants.NGHTTP2_CANCEL);
        connections.check(on);
      }, remaining);
      const status = (headers: http2.IncomingHttpHeaders) => {
        grpcStatus = headers["grpc-status"];
        grpcMessage = headers["grpc-message"];
        grpcDetails = headers["grpc-status-details-bin"];
      };
      stream.on("response", (headers) => {
        httpStatus = Number(headers[":status"]);
        contentType = headers["content-type"];
        isGrpc = contentType?.startsWith("application/grpc") ?? false;
        // A trailers-only response carries its status with the headers.
        if (headers["grpc-status"] !== undefined) status(headers);
      });
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("trailers", status);
      stream.on("error", (error: Error) => {
        failure = error;
      });
      stream.on("close", () => {
        clearTimeout(timer);
        connections.end(on);
        if (settled) return;
        settled = true;
        try {
          resolve(outcome());
        } catch (error) {
          reject(error);
        }
      });
      const outcome = (): Buffer => {
        if (grpcStatus !== undefined) {
          const code = Number(grpcStatus);
          if (code !== GrpcStatus.OK) {
            throw new GrpcCallError(code, decodeDetails(grpcMessage), decodeStatusDetails(grpcDetails));
          }
          return responseMessage(chunks);
        }
        if (httpStatus !== 0 && (httpStatus !== 200 || !isGrpc)) {
          const code = httpStatus === 200 ? GrpcStatus.UNKNOWN : statusOfHttp(httpStatus);
          throw new GrpcCallError(code, `HTTP status ${httpStatus}, ${contentType ?? "no content type"}`);
        }
        // The server refused the stream (above a GOAWAY's last stream id, say): UNAVAILABLE, retried.
        if (stream.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM) {
          throw new GrpcCallError(GrpcStatus.UNAVAILABLE, "stream refused by the server");
        }
        // As grpc-js: a connection that failed under the call (Node then reports a CANCEL of its own)
        // fails it UNAVAILABLE, before or after the answer's headers, so that it is retried.
        const lost = failure && (failure as NodeJS.ErrnoException).code !== "ERR_HTTP2_STREAM_ERROR";
        if (lost || on.dropped || on.session.destroyed) {
          throw new GrpcCallError(GrpcStatus.UNAVAILABLE, `Connection dropped${lost ? `: ${failure?.message}` : ""}`);
        }
        // The server reset the stream: its code says why.
        if (stream.rstCode !== undefined && stream.rstCode !== http2.constants.NGHTTP2_NO_ERROR) {
          throw new GrpcCallError(statusOfReset(stream.rstCode), `stream reset with code ${stream.rstCode}`);
        }
        if (httpStatus === 0) throw new GrpcCallError(GrpcStatus.UNAVAILABLE, "the connection closed mid-call");
        throw new GrpcCallError(GrpcStatus.INTERNAL, "the answer ended without a gRPC status");
      };
      opened = stream;
    });
    return { stream: opened, answer };
  };

  /**
   * The frame is written here, where no listener of the stream can hold it. A stream lives on, closed,
   * until a full collection, and so does whatever its listeners' scope holds: a frame held there (a bulk
   * of 100's is 45 KB) stayed in memory until then, and V8 counts such memory towards starting one. Under
   * bulk load that meant a full collection every second or so (docs/decisions/0001-publish-on-nodes-http2.md).
   */
  const call = (path: string, frame: Buffer, extra: Record<string, string>, deadline: number) => {
    const { stream, answer } = open(path, extra, deadline);
    if (stream) {
      frame[0] = 0;
      frame.writeUInt32BE(frame.length - FRAME_HEADER_BYTES, 1);
      stream.end(frame);
    }
    return answer;
  };

  /** The credentials' headers, within the call's deadline; failing to get them counts as UNAVAILABLE. */
  const credentials = (fetch: () => Promise<Record<string, string>>, deadline: number) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new GrpcCallError(GrpcStatus.DEADLINE_EXCEEDED, "the deadline passed getting credentials")),
        Math.max(0, deadline - Date.now()),
      );
    });
    const fetched = fetch().catch((error: Error) => {
      // As grpc-js treats credentials that could not be had: UNAVAILABLE, so the call is retried.
      throw new GrpcCallError(GrpcStatus.UNAVAILABLE, `no credentials: ${error.message}`);
    });
    return Promise.race([fetched, late]).finally(() => clearTimeout(timer));
  };

  const settled = () => {
    if (--active > 0) return;
    for (const resolve of idle) resolve();
    idle.clear();
  };

  return {
    unary(path, frame, headers, deadline) {
      active++;
      const answer = options.callHeaders
        ? credentials(options.callHeaders, deadline).then((auth) =>
            call(path, frame, { ...auth, ...headers }, deadline),
          )
        : call(path, frame, headers, deadline);
      answer.then(settled, settled);
      return answer;
    },
    async close() {
      if (active > 0) await new Promise<void>((resolve) => idle.add(resolve));
      await connections.close();
    },
  };
}
