import { handleMessage, UNSTORABLE_KEYS_FIELD } from "@usage-ingestion/records";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { gatewayOnEmulators } from "../setup/gateway.ts";
import { firestore } from "../setup/harness.ts";
import { pushEvent, workerDeps } from "../setup/worker.ts";

/**
 * `__proto__`, `prototype` and `constructor` are keys like any other in `context` and in `metrics` (which
 * keep every key a client sends): queued, then stored, never dropped and never taken for the prototype.
 */
const transaction =
  '{"provider":"openai","model":"gpt-4o","usage":[{"type":"tokens","metrics":{"input_tokens":10,"output_tokens":5,' +
  '"total_tokens":15,"__proto__":{"m":1},"constructor":2}}],"context":{"billable_customer_id":"c-1",' +
  '"__proto__":{"polluted":true},"prototype":"p","constructor":{"c":3}}}';

describe("keys named __proto__, prototype and constructor, gateway to record", () => {
  const setup = gatewayOnEmulators();

  it.each([
    ["a single transaction", transaction],
    ["a bulk", `{"transactions":[${transaction},${transaction}]}`],
  ])("are queued and stored as sent, in %s", async (_, body) => {
    const response = await setup.gateway.post(body, { "X-Api-Key": setup.org.apiKey });
    expect(response.status).toBe(202);
    const ids = ((await response.json()) as { results: Array<{ message_id: string }> }).results.map(
      (result) => result.message_id,
    );
    const messages = await setup.topic.pull(ids.length);
    expect(messages.map((message) => message.id).sort()).toEqual([...ids].sort());

    for (const message of messages) {
      expect(JSON.stringify((message.data as { transaction: unknown }).transaction)).toBe(transaction);
      const event = pushEvent(message.data, message.id);
      expect(await handleMessage(workerDeps(), event)).toBe("priced");
      const record = (
        await firestore().doc(DOCUMENT_PATHS.transaction(setup.org.organizationId, message.id)).get()
      ).data();
      expect(record?.context).toEqual({
        billable_customer_id: "c-1",
        prototype: "p",
        constructor: { c: 3 },
        [UNSTORABLE_KEYS_FIELD]: '{"__proto__":{"polluted":true}}',
      });
      expect(record?.usage).toEqual([
        {
          type: "tokens",
          metrics: {
            input_tokens: 10,
            output_tokens: 5,
            total_tokens: 15,
            constructor: 2,
            [UNSTORABLE_KEYS_FIELD]: '{"__proto__":{"m":1}}',
          },
        },
      ]);
      // gpt-4o: 10 input tokens at $2.50 and 5 output tokens at $10 per million: 0.000025 + 0.00005 USD.
      expect(record?.cost_nanos).toBe(75_000);
    }
    expect({}).not.toHaveProperty("polluted");
  });
});
