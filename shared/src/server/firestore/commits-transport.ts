import type { Firestore } from "@google-cloud/firestore";
import type { Transport } from "../config.ts";
import { clientCommits } from "./firestore-client-commits.ts";
import { type Commits, type CommitsOptions, firestoreCommits } from "./firestore-commits.ts";

/**
 * The worker's commits on the transport FIRESTORE_COMMIT_TRANSPORT names: `wire`, our own Commit call on
 * our own channel (docs/decisions/0002, 0016), or `client`, the same commits through `db`, the Firestore
 * client the worker reads with. Both bound each commit by `timeoutMs`.
 */
export function commitsOn(transport: Transport, db: Firestore, wire: () => CommitsOptions, timeoutMs: number): Commits {
  return transport === "client" ? clientCommits(db, timeoutMs) : firestoreCommits(wire());
}
