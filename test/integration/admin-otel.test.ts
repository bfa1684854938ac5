import { UserError } from "@usage-ingestion/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { firestore, pullableTopic, seedOrganization } from "../setup/harness.ts";

const admin = async (...args: string[]) => {
  const lines: string[] = [];
  await runAdmin(args, firestore(), (line) => lines.push(line));
  return lines;
};

let org: Awaited<ReturnType<typeof seedOrganization>>;
let topic: Awaited<ReturnType<typeof pullableTopic>>;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;
beforeAll(async () => {
  org = await seedOrganization();
  topic = await pullableTopic();
  gateway = await startTestGateway({ topicName: topic.topicName, keyCacheTtlMs: 0 });
});
afterAll(() => gateway?.close());

const span = (attributes: Record<string, string | number>) => ({
  resourceSpans: [
    {
      resource: { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }] },
      scopeSpans: [
        {
          spans: [
            {
              traceId: "5b8efff798038103d269b633813fc60c",
              spanId: "00000000000000b1",
              name: "chat",
              attributes: Object.entries(attributes).map(([key, value]) => ({
                key,
                value: typeof value === "string" ? { stringValue: value } : { intValue: value },
              })),
            },
          ],
        },
      ],
    },
  ],
});

describe("admin org otel", () => {
  it("shows the defaults until the organization has its own", async () => {
    expect(await admin("org", "otel", "show", org.organizationId)).toEqual([
      "customer_attribute\tenduser.id, user.id, service.name\tdefault",
      "context_attributes\t-\tdefault",
    ]);
  });

  it("sets the customer and context attributes, which the gateway applies to the spans' transactions", async () => {
    expect(
      await admin(
        "org",
        "otel",
        "set",
        org.organizationId,
        "--customer-attribute",
        "tenant.id",
        "--context-attributes",
        "feature=app.feature,deployment.environment",
      ),
    ).toEqual([
      "customer_attribute\ttenant.id\town",
      "context_attributes\tfeature=app.feature,deployment.environment\town",
    ]);
    const response = await fetch(`${gateway.baseUrl}/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": org.apiKey },
      body: JSON.stringify(
        span({
          "gen_ai.operation.name": "chat",
          "gen_ai.provider.name": "openai",
          "gen_ai.request.model": "gpt-4o-mini",
          "gen_ai.usage.input_tokens": 10,
          "gen_ai.usage.output_tokens": 2,
          "tenant.id": "acme",
          "enduser.id": "not-the-customer-now",
          "app.feature": "search",
          "deployment.environment": "prod",
        }),
      ),
    });
    expect(response.status).toBe(200);
    const [message] = await topic.pull(1, 10_000);
    expect(message?.data).toMatchObject({
      transaction: { context: { billable_customer_id: "acme", feature: "search", "deployment.environment": "prod" } },
    });
  });

  it("goes back to the defaults, and refuses what cannot be an attribute or a context key", async () => {
    expect(
      await admin(
        "org",
        "otel",
        "set",
        org.organizationId,
        "--customer-attribute",
        "default",
        "--context-attributes",
        "none",
      ),
    ).toEqual(["customer_attribute\tenduser.id, user.id, service.name\tdefault", "context_attributes\t-\tdefault"]);
    for (const args of [
      ["--customer-attribute", "has space"],
      ["--context-attributes", "billable_customer_id=user.id"],
      ["--context-attributes", "a=x,a=y"],
      ["--colour", "blue"],
      [],
    ]) {
      await expect(admin("org", "otel", "set", org.organizationId, ...args)).rejects.toBeInstanceOf(UserError);
    }
    await expect(admin("org", "otel", "show", "no-such-org")).rejects.toThrow(/does not exist/);
  });
});
