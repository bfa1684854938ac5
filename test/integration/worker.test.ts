import { handleMessage } from "@usage-ingestion/records";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { validTransaction } from "../setup/fixtures.ts";
import { firestore, uniqueId } from "../setup/harness.ts";
import { envelope, pushEvent, unreachableFirestore, workerDeps } from "../setup/worker.ts";

describe("cost worker on the Firestore emulator", () => {
  it("stores the priced record, exactly", async () => {
    const org = uniqueId("org");
    const message = envelope(
      org,
      validTransaction({
        model_tier: "batch",
        provider_usage_raw: { id: "chatcmpl-1", nested: [[1, 2]] },
        usage: [
          {
            type: "tokens",
            metrics: { input_tokens: 1200, cached_tokens: 200, output_tokens: 300, total_tokens: 1500 },
          },
        ],
        context: { billable_customer_id: "cust-7", team: "search", "": "empty key" },
      }),
      3,
    );
    const event = pushEvent(message);
    const deps = workerDeps();
    expect(await handleMessage(deps, event)).toBe("priced");

    const snap = await firestore()
      .doc(DOCUMENT_PATHS.transaction(org, event.id as string))
      .get();
    const record = snap.data();
    // gpt-4o batch: (1000 x 2.50 + 200 x 1.25 + 300 x 10) / 2 per million = 0.002875 USD.
    expect(record).toEqual({
      message_id: event.id,
      request_id: message.request_id,
      transaction_index: 3,
      organization_id: org,
      received_at: message.received_at,
      processed_at: expect.any(String),
      provider: "openai",
      model: "gpt-4o",
      model_tier: "batch",
      context: { billable_customer_id: "cust-7", team: "search", _unstorable_json: '{"":"empty key"}' },
      usage: message.transaction.usage,
      provider_usage_raw: { id: "chatcmpl-1", nested: ["[1,2]"] },
      status: "priced",
      unpriced_reason: null,
      cost_usd: "0.002875000",
      cost_nanos: 2_875_000,
      currency: "USD",
      line_items: [
        expect.objectContaining({ usage_type: "tokens", component: "input", quantity: 1000, cost_nanos: 1_250_000 }),
        expect.objectContaining({ usage_type: "tokens", component: "cache_read", quantity: 200, cost_nanos: 125_000 }),
        expect.objectContaining({ usage_type: "tokens", component: "output", quantity: 300, cost_nanos: 1_500_000 }),
      ],
      pricing: { source: "catalog", version: expect.stringMatching(/^@pydantic\/genai-prices@/), model: "gpt-4o" },
      queue_schema_version: 1,
      transaction_id: null,
      duplicate_of: null,
      dimensions: {},
    });
  });

  it("writes a redelivered message once and acknowledges the repeat", async () => {
    const org = uniqueId("org");
    const event = pushEvent(envelope(org, validTransaction()));
    const deps = workerDeps();
    expect(await handleMessage(deps, event)).toBe("priced");
    const first = (
      await firestore()
        .doc(DOCUMENT_PATHS.transaction(org, event.id as string))
        .get()
    ).data();
    expect(await handleMessage(deps, event)).toBe("redelivered");
    const records = await firestore().collection(DOCUMENT_PATHS.transactions(org)).get();
    expect(records.size).toBe(1);
    expect(records.docs[0]?.data()).toEqual(first);
  });

  it("stores an unknown model as unpriced with its reason, never as zero", async () => {
    const org = uniqueId("org");
    const event = pushEvent(envelope(org, validTransaction({ model: "gpt-unknown-42" })));
    expect(await handleMessage(workerDeps(), event)).toBe("unpriced");
    const record = (
      await firestore()
        .doc(DOCUMENT_PATHS.transaction(org, event.id as string))
        .get()
    ).data();
    expect(record).toMatchObject({ status: "unpriced", cost_usd: null, cost_nanos: null, line_items: [] });
    expect(record?.unpriced_reason).toMatch(/^unknown_model: /);
  });

  it("throws on a Firestore failure so Pub/Sub redelivers, then stores once when it is back", async () => {
    const org = uniqueId("org");
    const event = pushEvent(envelope(org, validTransaction()));
    const down = await unreachableFirestore();
    await expect(handleMessage(workerDeps(down, 1_000), event)).rejects.toThrow(/longer than 1000 ms/);
    expect(
      (
        await firestore()
          .doc(DOCUMENT_PATHS.transaction(org, event.id as string))
          .get()
      ).exists,
    ).toBe(false);
    expect(await handleMessage(workerDeps(), event)).toBe("priced");
    expect(
      (
        await firestore()
          .doc(DOCUMENT_PATHS.transaction(org, event.id as string))
          .get()
      ).exists,
    ).toBe(true);
  });

  it.each<[string, unknown, RegExp]>([
    ["no data", undefined, /no data/],
    ["data that is not JSON", "{oops", /not JSON/],
    ["an envelope that does not parse", { schema_version: 99, organization_id: "" }, /not a valid queue envelope/],
  ])("keeps a poison message with %s in rejected_messages and acknowledges it", async (_name, data, reason) => {
    const event = pushEvent(data);
    const deps = workerDeps();
    expect(await handleMessage(deps, event)).toBe("rejected");
    const kept = (
      await firestore()
        .doc(DOCUMENT_PATHS.rejectedMessage(event.id as string))
        .get()
    ).data();
    expect(kept).toMatchObject({ message_id: event.id, reason: expect.stringMatching(reason) });
    expect(kept?.data_base64).toBe(event.data?.message?.data ?? null);
    expect(deps.logger.lines.at(-1)).toMatchObject({ severity: "ERROR", fields: { outcome: "rejected" } });
  });
});
