import firestorePackage from "@google-cloud/firestore/package.json" with { type: "json" };
import { GoogleAuth } from "google-auth-library";
import { withTimeout } from "../../timeout.ts";
import { apiClientHeader } from "../grpc/api-client-header.ts";
import { type GrpcChannelOptions, grpcChannel } from "../grpc/grpc-channel.ts";
import { FRAME_HEADER_BYTES, GrpcCallError, GrpcStatus } from "../grpc/grpc-status.ts";
import { retryDelays } from "../grpc/retry-delays.ts";
import { type DocumentWrite, encodeCommitRequest } from "./commit-wire.ts";
import { type FirestoreClientSettings, firestoreEndpoint } from "./firestore-endpoint.ts";

const COMMIT = "/google.firestore.v1.Firestore/Commit";
/** What the Firestore client retries a commit on (its `commit` retry codes and ABORTED), and its backoff. */
const RETRIED = new Set<number>([GrpcStatus.ABORTED, GrpcStatus.RESOURCE_EXHAUSTED, GrpcStatus.UNAVAILABLE]);
/** The Firestore client's x-goog-api-client, as it sends it with each call. */
const CLIENT = apiClientHeader(`gccl/${firestorePackage.version}`);
const BACKOFF = { initialDelayMs: 100, multiplier: 1.3, maxDelayMs: 60_000 };

/**
 * Whether a commit may be sent again: only when it carries a create (a does-not-exist precondition). A
 * commit applied whose answer was lost then fails ALREADY_EXISTS, and nothing of it is applied twice (a
 * commit is atomic). Without one, a retry could add a commit's increments twice: it is sent once.
 */
export const mayRetry = (writes: readonly DocumentWrite[]): boolean => writes.some((write) => write.kind === "create");

/** Atomic commits of document writes, each within its own time. */
export interface Commits {
  /**
   * Commits every write or none; rejects with a GrpcCallError whose `code` says why (ALREADY_EXISTS for a
   * create, NOT_FOUND for an increment, INVALID_ARGUMENT for data Firestore refuses, DEADLINE_EXCEEDED).
   */
  commit(writes: readonly DocumentWrite[]): Promise<void>;
  close(): Promise<void>;
}

export interface CommitsOptions {
  channel: GrpcChannelOptions;
  /** Headers every call carries besides the channel's own (the emulator's token). */
  headers?: Record<string, string>;
  /** `projects/{project}/databases/{database}`, or how to find it (the project from the credentials). */
  database: () => Promise<string>;
  /** Each commit's time, retries included. */
  timeoutMs: number;
}

/**
 * Firestore's `Commit` as one unary gRPC call on the shared channel (Node.js's own `http2`), the request
 * written by `commit-wire.ts`, retried as the Firestore client retries it (full jitter), but only when
 * it carries a create (`mayRetry`). A commit that succeeded but whose answer was lost is harmless when
 * retried: its create then fails ALREADY_EXISTS, which the record store reads as a redelivery.
 */
export function firestoreCommits(options: CommitsOptions): Commits {
  const channel = grpcChannel(options.channel);
  let finding: Promise<string> | undefined;
  let found: { name: string; headers: Record<string, string> } | undefined;
  /** The database's name and the call's headers, found once. */
  const database = async () => {
    finding ??= options.database().catch((error: Error) => {
      finding = undefined;
      throw new GrpcCallError(GrpcStatus.UNAVAILABLE, `no database to write to: ${error.message}`);
    });
    const name = await finding;
    // Routing for the database, as the Firestore client sends it with every call.
    found = {
      name,
      headers: {
        ...options.headers,
        "google-cloud-resource-prefix": name,
        "x-goog-request-params": `database=${encodeURIComponent(name)}`,
      },
    };
    return found;
  };
  return {
    async commit(writes) {
      const deadline = Date.now() + options.timeoutMs;
      // Finding the project (from the credentials, when none is configured) counts towards the time too.
      const { name, headers } =
        found ??
        (await withTimeout(
          database(),
          options.timeoutMs,
          () => new GrpcCallError(GrpcStatus.DEADLINE_EXCEEDED, "the deadline passed finding the database"),
        ));
      const frame = encodeCommitRequest(name, writes, FRAME_HEADER_BYTES);
      const retriable = mayRetry(writes);
      const delays = retryDelays(BACKOFF);
      for (;;) {
        try {
          await channel.unary(COMMIT, frame, headers, deadline);
          return;
        } catch (error) {
          const retried = retriable && error instanceof GrpcCallError && RETRIED.has(error.code);
          const delay = retried ? delays(error) : 0;
          if (!retried || Date.now() + delay >= deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      }
    },
    close: () => channel.close(),
  };
}

/**
 * Where the Firestore client itself would send the call (firestore-endpoint.ts, from the same settings):
 * the emulator in plaintext as its owner, anything else over TLS with Application Default Credentials;
 * the database is the client's, in the configured project or the credentials' own.
 */
export function firestoreCommitsOptions(settings: {
  emulatorHost: string | undefined;
  /** The settings the worker gives its Firestore client (host, servicePath, apiEndpoint, port, ssl). */
  client?: FirestoreClientSettings;
  universeDomain?: string | undefined;
  projectId: string | undefined;
  databaseId: string;
  timeoutMs: number;
}): CommitsOptions {
  const endpoint = firestoreEndpoint(settings.client ?? {}, settings);
  // The scopes the Firestore client asks for.
  const auth = new GoogleAuth({
    scopes: ["https://www.googleapis.com/auth/cloud-platform", "https://www.googleapis.com/auth/datastore"],
  });
  const database = async () =>
    `projects/${settings.projectId ?? (await auth.getProjectId())}/databases/${settings.databaseId}`;
  const common = { database, timeoutMs: settings.timeoutMs };
  if (endpoint.emulator) {
    return { ...common, channel: { origin: endpoint.origin }, headers: { authorization: "Bearer owner", ...CLIENT } };
  }
  if (endpoint.origin.startsWith("http:")) return { ...common, channel: { origin: endpoint.origin }, headers: CLIENT };
  return {
    ...common,
    channel: {
      origin: endpoint.origin,
      callHeaders: async () => Object.fromEntries(await auth.getRequestHeaders()),
    },
    headers: CLIENT,
  };
}
