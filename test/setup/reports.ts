import { setDimensions } from "@usage-ingestion/organizations";
import { type SeedRecord, seedUsage } from "../../scripts/lib/seed-usage.ts";
import { type JsonResponse, startTestGateway } from "./gateway.ts";
import { firestore, pullableTopic, seedOrganization } from "./harness.ts";

/** A gateway, and a fresh organization with declared dimensions and records seeded as the worker writes them. */
export async function reportFixture(
  dimensions: string[],
  seeds: SeedRecord[],
  options: Omit<Parameters<typeof startTestGateway>[0], "topicName"> = {},
) {
  const org = await seedOrganization();
  await setDimensions(firestore(), org.organizationId, dimensions);
  await seedUsage(firestore(), org.organizationId, dimensions, seeds);
  const topic = await pullableTopic();
  const gateway = await startTestGateway({ ...options, topicName: topic.topicName });
  const get = (path: string, key = org.readKey): Promise<JsonResponse> =>
    fetch(`${gateway.baseUrl}${path}`, { headers: { "x-api-key": key } });
  return { ...org, gateway, get };
}
