import { Firestore } from "@google-cloud/firestore";
import { jsonLogger } from "@usage-ingestion/shared/server";
import { createApp } from "../../services/gateway/src/app.ts";
import { cachedKeyStore } from "../../services/gateway/src/auth/cached-key-store.ts";
import { firestoreKeyStore } from "../../services/gateway/src/auth/key-store.ts";

/**
 * Benchmark diagnostic only, never a product path: the real gateway app and key store with a publisher
 * that acknowledges at once, to separate the gateway's own cost from the Pub/Sub emulator's, which
 * shares this machine's two cores during the benchmark.
 */
let next = 0;
const app = createApp({
  keys: cachedKeyStore(firestoreKeyStore(new Firestore({ projectId: process.env.GOOGLE_CLOUD_PROJECT })), {
    ttlMs: 10_000,
    maxEntries: 10_000,
    lookupTimeoutMs: 5_000,
  }),
  publisher: { publish: async () => String(++next), flush: async () => {} },
  logger: jsonLogger(),
});
app.listen(Number(process.env.PORT));
