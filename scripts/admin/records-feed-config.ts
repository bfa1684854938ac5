import type { PubSub } from "@google-cloud/pubsub";
import { pubSubRecordsFeed, RECORDS_TOPIC, type RecordsFeed } from "@usage-ingestion/records";
import { parseConfig, stringVar, transportVar } from "@usage-ingestion/shared/server";
import * as v from "valibot";

/** Bound on one page's publish from the command line (a page is up to 500 records). */
const RECORDS_PUBLISH_TIMEOUT_MS = 30_000;

/** What the command line's records feed reads of the environment: the worker's own names and defaults. */
const AdminFeedEnvSchema = v.object({
  RECORDS_TOPIC: stringVar(RECORDS_TOPIC),
  PUBSUB_PUBLISH_TRANSPORT: transportVar(),
});

/**
 * The records feed `reprice` and `records publish` use: the topic and the transport the worker's are
 * set by (RECORDS_TOPIC, PUBSUB_PUBLISH_TRANSPORT), so the command line can fall back to the client too.
 */
export function adminRecordsFeed(pubsub: PubSub, env: Record<string, string | undefined>): RecordsFeed {
  const config = parseConfig(AdminFeedEnvSchema, env);
  return pubSubRecordsFeed(pubsub, {
    topic: config.RECORDS_TOPIC,
    transport: config.PUBSUB_PUBLISH_TRANSPORT,
    timeoutMs: RECORDS_PUBLISH_TIMEOUT_MS,
  });
}
