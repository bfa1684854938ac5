import type { IncomingHttpHeaders, ServerHttp2Stream } from "node:http2";
import { afterEach, describe, expect, it } from "vitest";
import { closeStandIns, cuttableProxy, echo, failureOf, standIn } from "../../../../test/setup/grpc-stand-in.ts";
import { GrpcStatus } from "../grpc/grpc-status.ts";
import { firestoreCommits, firestoreCommitsOptions } from "./firestore-commits.ts";

/**
 * The commit's reaction to what Firestore may answer, against a stand-in server (the emulator answers
 * every call well); commits to the emulator itself are in test/integration/firestore-commits.emulator.test.ts.
 */
afterEach(closeStandIns);

const DATABASE = "projects/p/databases/(default)";
const fails = (stream: ServerHttp2Stream, code: number) =>
  stream.respond(
    { ":status": 200, "content-type": "application/grpc", "grpc-status": String(code) },
    { endStream: true },
  );

/** A stand-in that fails the first calls with `codes`, then answers; it keeps each call's headers. */
async function failingFirst(...codes: number[]) {
  const calls: IncomingHttpHeaders[] = [];
  const { origin } = await standIn((stream, headers, body) => {
    calls.push(headers);
    const code = codes[calls.length - 1];
    if (code === undefined) echo(stream, headers, body);
    else fails(stream, code);
  });
  return { origin, calls };
}

describe("the worker's Firestore commits", () => {
  it("retry what the Firestore client retries, and carry the database's routing headers", async () => {
    const { origin, calls } = await failingFirst(GrpcStatus.UNAVAILABLE, GrpcStatus.ABORTED);
    const commits = firestoreCommits({
      channel: { origin },
      headers: { authorization: "Bearer owner" },
      database: async () => DATABASE,
      timeoutMs: 5_000,
    });
    await commits.commit([{ kind: "create", path: "c/d", fields: { a: 1 } }]);

    expect(calls).toHaveLength(3);
    expect(calls[2]).toMatchObject({
      ":path": "/google.firestore.v1.Firestore/Commit",
      authorization: "Bearer owner",
      "google-cloud-resource-prefix": DATABASE,
      "x-goog-request-params": `database=${encodeURIComponent(DATABASE)}`,
    });
    await commits.close();
  });

  it("never retry a commit without a create: its increments could be applied twice", async () => {
    const { origin, calls } = await failingFirst(GrpcStatus.UNAVAILABLE, GrpcStatus.ABORTED);
    const commits = firestoreCommits({ channel: { origin }, database: async () => DATABASE, timeoutMs: 5_000 });
    const counters = [[["transactions"], 1]] as const;
    const error = await failureOf(
      commits.commit([
        { kind: "merge", path: "c/cell", fields: { day: "2026-11-26" }, increments: counters },
        { kind: "increment", path: "c/other", increments: counters },
      ]),
    );
    expect(error.code).toBe(GrpcStatus.UNAVAILABLE);
    expect(calls).toHaveLength(1);
    await commits.close();
  });

  it("retry a commit whose connection was cut under it, UNAVAILABLE, on a new connection", async () => {
    let arrived = 0;
    const { origin } = await standIn((stream, headers, body) => {
      if (++arrived > 1) echo(stream, headers, body);
    });
    const proxy = await cuttableProxy(origin);
    const commits = firestoreCommits({
      channel: { origin: proxy.origin },
      database: async () => DATABASE,
      timeoutMs: 5_000,
    });
    const committed = commits.commit([{ kind: "create", path: "c/d", fields: { a: 1 } }]);
    await expect.poll(() => arrived).toBe(1);
    proxy.cut();
    await committed;
    expect(arrived).toBe(2);
    expect(proxy.connections()).toBe(2);
    await commits.close();
    await proxy.close();
  });

  it("never retry what a retry cannot fix", async () => {
    for (const code of [3, 5, 6]) {
      const { origin, calls } = await failingFirst(code);
      const commits = firestoreCommits({ channel: { origin }, database: async () => DATABASE, timeoutMs: 5_000 });
      expect((await failureOf(commits.commit([{ kind: "create", path: "c/d", fields: {} }]))).code).toBe(code);
      expect(calls).toHaveLength(1);
      await commits.close();
    }
  });

  it("fail UNAVAILABLE while the database cannot be named, and ask again on the next commit", async () => {
    const { origin } = await failingFirst();
    let asked = 0;
    const commits = firestoreCommits({
      channel: { origin },
      database: async () => {
        if (++asked === 1) throw new Error("no project");
        return DATABASE;
      },
      timeoutMs: 5_000,
    });
    const error = await failureOf(commits.commit([{ kind: "create", path: "c/d", fields: {} }]));
    expect(error.code).toBe(GrpcStatus.UNAVAILABLE);
    await commits.commit([{ kind: "create", path: "c/d", fields: {} }]);
    expect(asked).toBe(2);
    await commits.close();
  });

  it("give up within their time while the database is still being looked for", async () => {
    const { origin, calls } = await failingFirst();
    const commits = firestoreCommits({ channel: { origin }, database: () => new Promise(() => {}), timeoutMs: 200 });
    const error = await failureOf(commits.commit([{ kind: "create", path: "c/d", fields: {} }]));
    expect(error.code).toBe(GrpcStatus.DEADLINE_EXCEEDED);
    expect(calls).toHaveLength(0);
    await commits.close();
  });

  it("go to the emulator in plaintext as its owner, or to Firestore over TLS with credentials", async () => {
    const settings = { projectId: "p", databaseId: "(default)", timeoutMs: 1_000 };
    const emulator = firestoreCommitsOptions({ ...settings, emulatorHost: "127.0.0.1:8080" });
    expect(emulator.channel).toEqual({ origin: "http://127.0.0.1:8080" });
    expect(emulator.headers).toMatchObject({ authorization: "Bearer owner" });
    expect(await emulator.database()).toBe(DATABASE);

    const cloud = firestoreCommitsOptions({ ...settings, emulatorHost: undefined });
    expect(cloud.channel.origin).toBe("https://firestore.googleapis.com:443");
    expect(cloud.channel.callHeaders).toBeTypeOf("function");
    expect(cloud.headers).not.toHaveProperty("authorization");
    expect(await cloud.database()).toBe(DATABASE);
  });

  it("send the Firestore client's x-goog-api-client with every commit", async () => {
    const { origin, calls } = await failingFirst();
    const options = firestoreCommitsOptions({
      projectId: "p",
      databaseId: "(default)",
      timeoutMs: 5_000,
      emulatorHost: origin.slice("http://".length),
    });
    const commits = firestoreCommits(options);
    await commits.commit([{ kind: "create", path: "c/d", fields: {} }]);
    expect(String(calls[0]?.["x-goog-api-client"])).toMatch(/^gl-node\/\S+ gax\/\S+ gccl\/\d+\.\d+\.\d+$/);
    await commits.close();
  });
});
