import net, { type AddressInfo } from "node:net";
import tls from "node:tls";

/**
 * A local TCP proxy to a real endpoint that resets its first connection once `cutAfterBytes` of the
 * caller's bytes have gone through (mid-request, for a request larger than that), and passes every later
 * connection untouched: a connection dropped under a call, on demand. TLS runs end to end through it.
 */
export async function cutProxy(
  host: string,
  port: number,
  cutAfterBytes: number,
  /** A certificate authority beyond Node's (a test's own). */
  ca?: Buffer,
) {
  let connections = 0;
  let cut = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const first = connections++ === 0;
    const upstream = net.connect(port, host);
    for (const end of [socket, upstream]) {
      sockets.add(end);
      end.on("error", () => undefined);
      end.on("close", () => sockets.delete(end));
    }
    let forwarded = 0;
    socket.on("data", (bytes: Buffer) => {
      forwarded += bytes.length;
      if (first && forwarded > cutAfterBytes) {
        cut = true;
        socket.resetAndDestroy();
        upstream.resetAndDestroy();
        return;
      }
      upstream.write(bytes);
    });
    upstream.pipe(socket);
    socket.on("close", () => upstream.destroy());
    upstream.on("close", () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const localPort = (server.address() as AddressInfo).port;
  return {
    /** Opens a TLS connection to `host` through the proxy, as the channel's createConnection. */
    createConnection: () =>
      tls.connect({
        socket: net.connect(localPort, "127.0.0.1"),
        servername: host,
        ALPNProtocols: ["h2"],
        ...(ca ? { ca } : {}),
      }),
    connections: () => connections,
    wasCut: () => cut,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
