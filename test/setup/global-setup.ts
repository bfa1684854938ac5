import { PubSub } from "@google-cloud/pubsub";
import type { TestProject } from "vitest/node";
import { startEmulators } from "../../scripts/lib/emulators.ts";
import { ensureRecordsTopic } from "../../scripts/lib/topology.ts";

/**
 * Starts the real Pub/Sub and Firestore emulators as process groups on free ports for the whole run,
 * points the client libraries at them, and kills the groups afterwards (no Java left behind).
 */
export default async function setup(project: TestProject) {
  const projectId = "demo-usage-test";
  const emulators = await startEmulators({ projectId });
  Object.assign(process.env, emulators.env);
  project.provide("emulatorEnv", emulators.env);
  // The worker publishes every stored record to the records topic: tests that drive it need the topic.
  const pubsub = new PubSub({ projectId });
  await ensureRecordsTopic(pubsub);
  await pubsub.close();
  return async () => {
    await emulators.stop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    emulatorEnv: Record<string, string>;
  }
}
