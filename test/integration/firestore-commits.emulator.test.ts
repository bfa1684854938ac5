import { FieldValue, Firestore } from "@google-cloud/firestore";
import {
  commitsOn,
  firestoreCommitsOptions,
  isAlreadyExists,
  isInvalidArgument,
  isNotFound,
  TRANSPORTS,
} from "@usage-ingestion/shared/server";
import { describe, expect, it } from "vitest";
import { firestore, freeClosedPort, uniqueId } from "../setup/harness.ts";
import { emulatorCommits } from "../setup/worker.ts";

/** What a record holds: every kind of value the worker stores. */
const record = {
  message_id: "m-1",
  status: "priced",
  cost_usd: "0.005750000",
  cost_nanos: 5_750_000,
  model_tier: null,
  usage: [{ type: "tokens", metrics: { input_tokens: 1_200, cached_tokens: 200, ratio: 0.5 } }],
  context: { billable_customer_id: "c-1", nested: { flag: true, list: [] }, empty: {} },
  line_items: [],
};

const unreachableOptions = (host: string) =>
  firestoreCommitsOptions({
    emulatorHost: host,
    projectId: process.env.GOOGLE_CLOUD_PROJECT,
    databaseId: "(default)",
    timeoutMs: 600,
  });
/** A Firestore client whose emulator is not there: the client reads FIRESTORE_EMULATOR_HOST when made. */
function unreachableClient(host: string): Firestore {
  const emulator = process.env.FIRESTORE_EMULATOR_HOST;
  process.env.FIRESTORE_EMULATOR_HOST = host;
  try {
    return new Firestore({ projectId: process.env.GOOGLE_CLOUD_PROJECT });
  } finally {
    process.env.FIRESTORE_EMULATOR_HOST = emulator;
  }
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/** Every case runs on both transports (FIRESTORE_COMMIT_TRANSPORT), so that the fallback stays real. */
describe.each(TRANSPORTS)("the worker's Firestore commits on the %s transport, on the emulator", (transport) => {
  const db = firestore();
  const commits = emulatorCommits(10_000, transport);

  it("store a created document as the Firestore client stores it", async () => {
    const collection = uniqueId("commits");
    await db.doc(`${collection}/by-client`).create(record);
    await commits.commit([{ kind: "create", path: `${collection}/ours`, fields: record }]);

    const ours = (await db.doc(`${collection}/ours`).get()).data();
    expect(ours).toEqual((await db.doc(`${collection}/by-client`).get()).data());
    expect(ours).toEqual(record);
  });

  it("merge a cell's key and add to its counters as the client's merge does, names needing quotes too", async () => {
    const collection = uniqueId("cells");
    const key = { day: "2026-11-23", dimensions: { "team.name": "a", "a`b": null, plain: "p" }, shard: 3 };
    for (const [transactions, tokens] of [
      [1, 100],
      [2, 0],
    ] as const) {
      await db.doc(`${collection}/by-client`).set(
        {
          ...key,
          transactions: FieldValue.increment(transactions),
          quantities: { tokens: FieldValue.increment(tokens) },
        },
        { merge: true },
      );
      await commits.commit([
        {
          kind: "merge",
          path: `${collection}/ours`,
          fields: key,
          increments: [
            [["transactions"], transactions],
            [["quantities", "tokens"], tokens],
          ],
        },
      ]);
    }
    await commits.commit([
      { kind: "increment", path: `${collection}/ours`, increments: [[["quantities", "tokens"], 5]] },
    ]);
    await db.doc(`${collection}/by-client`).update({ "quantities.tokens": FieldValue.increment(5) });

    const ours = (await db.doc(`${collection}/ours`).get()).data();
    expect(ours).toEqual((await db.doc(`${collection}/by-client`).get()).data());
    expect(ours).toEqual({ ...key, transactions: 3, quantities: { tokens: 105 } });
  });

  it("write nothing of a commit whose create finds its document, or whose increment finds none", async () => {
    const collection = uniqueId("atomic");
    await commits.commit([{ kind: "create", path: `${collection}/record`, fields: { n: 1 } }]);
    const counter = { kind: "merge", path: `${collection}/cell`, fields: {}, increments: [[["n"], 1]] } as const;

    const exists = await failureOf(
      commits.commit([{ kind: "create", path: `${collection}/record`, fields: { n: 2 } }, counter]),
    );
    expect(isAlreadyExists(exists)).toBe(true);
    const missing = await failureOf(
      commits.commit([
        { kind: "create", path: `${collection}/other`, fields: { n: 3 } },
        { kind: "increment", path: `${collection}/missing`, increments: [[["n"], 1]] },
      ]),
    );
    expect(isNotFound(missing)).toBe(true);

    expect((await db.doc(`${collection}/record`).get()).data()).toEqual({ n: 1 });
    expect((await db.doc(`${collection}/cell`).get()).exists).toBe(false);
    expect((await db.doc(`${collection}/other`).get()).exists).toBe(false);
  });

  it("fail INVALID_ARGUMENT for a document Firestore refuses (over 1 MiB)", async () => {
    const error = await failureOf(
      commits.commit([{ kind: "create", path: `${uniqueId("big")}/doc`, fields: { text: "x".repeat(1_100_000) } }]),
    );
    expect(isInvalidArgument(error)).toBe(true);
  });

  it("give up within their time when Firestore cannot be reached", async () => {
    const host = `127.0.0.1:${await freeClosedPort()}`;
    const down = commitsOn(transport, unreachableClient(host), () => unreachableOptions(host), 600);
    const started = Date.now();
    const error = await failureOf(down.commit([{ kind: "create", path: "c/d", fields: {} }]));
    expect(error).toMatchObject({ code: expect.any(Number) });
    expect(Date.now() - started).toBeLessThan(3_000);
    await down.close();
  });
});
