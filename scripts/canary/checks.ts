import { randomUUID } from "node:crypto";
import { Firestore } from "@google-cloud/firestore";
import { PubSub } from "@google-cloud/pubsub";
import {
  type BatcherOptions,
  type Commits,
  clientCommits,
  firestoreCommits,
  firestoreCommitsOptions,
  isAlreadyExists,
  type OutgoingMessage,
  type PublishBatcher,
  pubSubBatcher,
  pubSubClientBatcher,
} from "@usage-ingestion/shared/server";
import { GoogleAuth } from "google-auth-library";
import { type CanaryArgs, CanaryRefusal } from "./args.ts";
import { cutProxy } from "./cut-proxy.ts";

const TIMEOUT_MS = 20_000;
/** Large enough that the cut comes while the request is still being sent. */
const LARGE_BYTES = 600 * 1024;
const CUT_AFTER_BYTES = 256 * 1024;

type Log = (line: string) => void;

/** The credentials of the environment, or a refusal that says what the canary needs. */
async function checkCredentials(): Promise<void> {
  try {
    await new GoogleAuth({ scopes: ["https://www.googleapis.com/auth/cloud-platform"] }).getAccessToken();
  } catch (error) {
    throw new CanaryRefusal(
      `no Google credentials (${(error as Error).message}). Set GOOGLE_APPLICATION_CREDENTIALS to a service ` +
        "account's key, or run `gcloud auth application-default login`; the account needs " +
        "roles/pubsub.publisher on the topic and roles/datastore.user in the project.",
    );
  }
}

async function publishes(name: string, batcher: PublishBatcher, message: OutgoingMessage, log: Log) {
  const [outcome] = await batcher.publish([message]);
  await batcher.close();
  if (outcome && "id" in outcome) {
    log(`ok    ${name}: message ${outcome.id}`);
    return true;
  }
  log(`FAIL  ${name}: ${String((outcome as { error: unknown } | undefined)?.error)}`);
  return false;
}

/** Creates a document by `commits`, reads it back by the client, deletes it: stored once, as sent. */
async function commits(name: string, on: Commits, db: Firestore, path: string, fields: object, log: Log) {
  try {
    await on.commit([{ kind: "create", path, fields }]).catch((error: unknown) => {
      // A retry after a commit that was applied but whose answer was lost: applied once all the same.
      if (!isAlreadyExists(error)) throw error;
    });
    const stored = (await db.doc(path).get()).data();
    await db.doc(path).delete();
    if (JSON.stringify(stored) !== JSON.stringify(fields)) throw new Error("the stored document differs");
    log(`ok    ${name}: ${path}`);
    return true;
  } catch (error) {
    log(`FAIL  ${name}: ${(error as Error).message}`);
    return false;
  } finally {
    await on.close();
  }
}

/** Every check in turn; true when all passed. */
export async function runCanary(args: CanaryArgs, log: Log): Promise<boolean> {
  await checkCredentials();
  const run = randomUUID();
  const pubsub = new PubSub({ projectId: args.project });
  const db = new Firestore({ projectId: args.project, databaseId: args.database });
  const batching: BatcherOptions = { topic: args.topic, timeoutMs: TIMEOUT_MS, batchMaxMs: 0 };
  const message = (data: string): OutgoingMessage => ({ data, attributes: { canary: run } });
  const wireOptions = () =>
    firestoreCommitsOptions({
      emulatorHost: undefined,
      universeDomain: process.env.GOOGLE_CLOUD_UNIVERSE_DOMAIN,
      projectId: args.project,
      databaseId: args.database,
      timeoutMs: TIMEOUT_MS,
    });
  const doc = (suffix: string) => `${args.collection}/${run}-${suffix}`;
  const results: boolean[] = [];
  try {
    log(`canary ${run}: project ${args.project}, topic ${args.topic}, database ${args.database}`);
    results.push(await publishes("publish, wire", pubSubBatcher(pubsub, batching), message("{}"), log));
    results.push(await publishes("publish, client", pubSubClientBatcher(pubsub, batching), message("{}"), log));
    results.push(await commits("commit, wire", firestoreCommits(wireOptions()), db, doc("wire"), { run }, log));
    results.push(await commits("commit, client", clientCommits(db, TIMEOUT_MS), db, doc("client"), { run }, log));

    // A connection cut under each call: retried on a new connection, and applied once.
    const { servicePath = "pubsub.googleapis.com" } = await pubsub.getClientConfig();
    const pubsubCut = await cutProxy(servicePath, 443, CUT_AFTER_BYTES);
    const large = JSON.stringify({ run, padding: "x".repeat(LARGE_BYTES) });
    const cutBatcher = pubSubBatcher(pubsub, {
      ...batching,
      channel: { createConnection: pubsubCut.createConnection },
    });
    const published = await publishes("publish, wire, connection cut", cutBatcher, message(large), log);
    results.push(published && pubsubCut.wasCut() && pubsubCut.connections() >= 2);
    await pubsubCut.close();

    const options = wireOptions();
    const firestoreHost = new URL(options.channel.origin).hostname;
    const firestoreCut = await cutProxy(firestoreHost, 443, CUT_AFTER_BYTES);
    const cutCommits = firestoreCommits({
      ...options,
      channel: { ...options.channel, createConnection: firestoreCut.createConnection },
    });
    const committed = await commits("commit, wire, connection cut", cutCommits, db, doc("cut"), { large }, log);
    results.push(committed && firestoreCut.wasCut() && firestoreCut.connections() >= 2);
    await firestoreCut.close();
    if (!pubsubCut.wasCut() || !firestoreCut.wasCut())
      log("FAIL  a connection was never cut: the checks above prove nothing");
  } finally {
    await Promise.allSettled([pubsub.close(), db.terminate()]);
  }
  const passed = results.filter(Boolean).length;
  log(`${passed} of ${results.length} checks passed`);
  return passed === results.length;
}
