import { randomUUID } from "node:crypto";
import { handleMessage } from "@usage-ingestion/records";
import { expect } from "vitest";
import { validTransaction } from "./fixtures.ts";
import { envelope, pushEvent, workerDeps } from "./worker.ts";

/** The worker's real handler and record store on the emulator: one transaction stored as in production. */
export function workerStore() {
  const deps = workerDeps();
  return async (
    organizationId: string,
    receivedAt: string,
    overrides: Record<string, unknown> = {},
    messageId = `m-${randomUUID()}`,
  ): Promise<string> => {
    const message = { ...envelope(organizationId, validTransaction(overrides)), received_at: receivedAt };
    const outcome = await handleMessage(deps, pushEvent(message, messageId));
    expect(["priced", "unpriced", "duplicate", "conflict"]).toContain(outcome);
    return messageId;
  };
}

/** An instant `minutes` before now, as the gateway stamps receive times. */
export const minutesAgo = (minutes: number, from = Date.now()) => new Date(from - minutes * 60_000).toISOString();

/** The message ids of a listing's records, in the order answered. */
export const idsOf = (body: { records: Array<{ message_id: string }> }) =>
  body.records.map((record) => record.message_id);
