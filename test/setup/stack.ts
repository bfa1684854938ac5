import { freePort } from "../../scripts/lib/processes.ts";
import { type Stack, startStack } from "../../scripts/lib/stack.ts";

/** Gateway and worker as processes, on the emulators the global setup started, with their own topic. */
export async function startStackOnTestEmulators(env: Record<string, string>): Promise<Stack> {
  return startStack({
    projectId: process.env.GOOGLE_CLOUD_PROJECT as string,
    gatewayPort: await freePort(),
    existingEmulators: {
      pubsubHost: process.env.PUBSUB_EMULATOR_HOST,
      firestoreHost: process.env.FIRESTORE_EMULATOR_HOST,
    },
    env,
  });
}
