import { afterEach, describe, expect, it } from "vitest";
import {
  closeStandIns,
  echo,
  failureOf,
  fixture,
  frameOf,
  freezableProxy,
  PATH,
  soon,
  standIn,
} from "../../../../test/setup/grpc-stand-in.ts";
import { grpcChannel } from "./grpc-channel.ts";
import { FRAME_HEADER_BYTES, GrpcStatus } from "./grpc-status.ts";

afterEach(closeStandIns);

/** The connection: GOAWAY, silence, PINGs, TLS, credentials and close, against stand-in servers. */
describe("the HTTP/2 connection under our gRPC calls", () => {
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
