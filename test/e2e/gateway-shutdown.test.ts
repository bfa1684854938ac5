import { describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/processes.ts";
import { startGatewayProcess } from "../../scripts/lib/services.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { pullableTopic, seedOrganization } from "../setup/harness.ts";

describe("gateway process on SIGTERM", () => {
  it("finishes the requests in flight, publishes them, and exits 0", async () => {
    const topic = await pullableTopic();
    const org = await seedOrganization();
    const port = await freePort();
    const gateway = await startGatewayProcess({
      port,
      env: {
        PUBSUB_EMULATOR_HOST: process.env.PUBSUB_EMULATOR_HOST as string,
        FIRESTORE_EMULATOR_HOST: process.env.FIRESTORE_EMULATOR_HOST as string,
        GOOGLE_CLOUD_PROJECT: process.env.GOOGLE_CLOUD_PROJECT as string,
        PUBSUB_TOPIC: topic.topicName,
        // A long batching window keeps the publish in flight when the signal arrives.
        PUBLISH_BATCH_MAX_MS: "500",
      },
    });
    try {
      const exited = new Promise<number | null>((resolve) => gateway.child.once("exit", (code) => resolve(code)));
      const inFlight = fetch(`http://127.0.0.1:${port}/usage/transactions`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": org.apiKey },
        body: JSON.stringify(validTransaction()),
      });
      await new Promise((resolve) => setTimeout(resolve, 150));
      gateway.child.kill("SIGTERM");
      const response = await inFlight;
      expect(response.status).toBe(202);
      const id = ((await response.json()) as { results: Array<{ message_id: string }> }).results[0]?.message_id;
      expect(await exited).toBe(0);
      const messages = await topic.pull(1);
      expect(messages.map((m) => m.id)).toEqual([id]);
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    } finally {
      await gateway.stop();
    }
  });
});
