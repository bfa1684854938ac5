import { PubSub } from "@google-cloud/pubsub";
import { pubSubRecordsFeed, RECORDS_TOPIC, type RecordsFeed } from "@usage-ingestion/records";
import { integerVar, stringVar, transportVar } from "@usage-ingestion/shared/server";
import * as v from "valibot";

/** The records feed, a step of the price-usage job: every stored record published for BigQuery. */
export const RECORDS_FEED_ENV = {
  /** The records topic: every stored record is published there for BigQuery (docs/reports.md). */
  RECORDS_TOPIC: stringVar(RECORDS_TOPIC),
  /** `wire`: the shared Publish call for the records feed (docs/decisions/0017); `client`: @google-cloud/pubsub's, the fallback. */
  PUBSUB_PUBLISH_TRANSPORT: transportVar(),
  /** Bound on publishing one record; past it the delivery fails and Pub/Sub redelivers. */
  RECORDS_PUBLISH_TIMEOUT_MS: integerVar(10_000),
};
const RecordsFeedEnvSchema = v.object(RECORDS_FEED_ENV);
export type RecordsFeedConfig = v.InferOutput<typeof RecordsFeedEnvSchema>;

/**
 * Stored records go to BigQuery through the records topic: the gateway's Publish call on HTTP/2, to the
 * endpoint the PubSub client resolves; or, PUBSUB_PUBLISH_TRANSPORT=client, the client's own publisher.
 * The universe domain is given to the client as it would read it, so that our own calls follow it too.
 */
export function recordsFeed(
  config: RecordsFeedConfig,
  projectId: string | undefined,
  universeDomain: string | undefined,
): RecordsFeed {
  const pubsub = new PubSub({ ...(projectId ? { projectId } : {}), ...(universeDomain ? { universeDomain } : {}) });
  return pubSubRecordsFeed(pubsub, {
    topic: config.RECORDS_TOPIC,
    transport: config.PUBSUB_PUBLISH_TRANSPORT,
    timeoutMs: config.RECORDS_PUBLISH_TIMEOUT_MS,
  });
}
