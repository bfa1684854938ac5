import { randomUUID } from "node:crypto";
import { type BudgetDocument, type BudgetInput, BudgetInputSchema, budgetDocument } from "@usage-ingestion/budgets";
import { handleMessage } from "@usage-ingestion/records";
import * as v from "valibot";
import { validTransaction } from "./fixtures.ts";
import { envelope, pushEvent, workerDeps } from "./worker.ts";

/** A budget as `admin budget create` stores it, held in memory. */
export const budgetOf = (input: BudgetInput, id = `b${randomUUID().slice(0, 8)}`): BudgetDocument =>
  budgetDocument(id, v.parse(BudgetInputSchema, input), "2026-01-01T00:00:00.000Z");

/**
 * One transaction of `units` custom units of the model `house` (or `model`) through the real worker,
 * received at `receivedAt`: what it stores is what the reports and budgets read.
 */
export async function sendUnits(
  organizationId: string,
  receivedAt: string,
  units: number,
  context: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  const transaction = validTransaction({
    provider: "custom",
    model: "house",
    usage: [{ type: "custom", metrics: { units } }],
    context,
    ...extra,
  });
  return handleMessage(workerDeps(), pushEvent({ ...envelope(organizationId, transaction), received_at: receivedAt }));
}
