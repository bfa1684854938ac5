import type { DocumentData, Firestore } from "@google-cloud/firestore";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { type BudgetDocument, type BudgetPeriod, MAX_BUDGETS_PER_ORGANIZATION } from "./budget.ts";

/** Where budgets are read from: an organization's budgets, all of them (at most MAX_BUDGETS_PER_ORGANIZATION). */
export interface BudgetSource {
  list(organizationId: string): Promise<BudgetDocument[]>;
}

/**
 * A stored budget as the contract types it. A client built with `useBigInt` (the reports') reads every
 * integer as a BigInt: thresholds are turned back into numbers here.
 */
export function budgetFromDocument(data: DocumentData): BudgetDocument {
  return {
    id: String(data.id),
    name: typeof data.name === "string" ? data.name : null,
    scope: data.scope ?? {},
    amount_usd: String(data.amount_usd),
    period: String(data.period) as BudgetPeriod,
    time_zone: String(data.time_zone ?? "UTC"),
    thresholds: ((data.thresholds ?? []) as Array<number | bigint>).map(Number),
    created_at: String(data.created_at),
    updated_at: String(data.updated_at ?? data.created_at),
  };
}

export function firestoreBudgetSource(db: Firestore): BudgetSource {
  return {
    async list(organizationId) {
      const snap = await db
        .collection(DOCUMENT_PATHS.budgets(organizationId))
        .orderBy("__name__")
        .limit(MAX_BUDGETS_PER_ORGANIZATION)
        .get();
      return snap.docs.map((doc) => budgetFromDocument(doc.data()));
    },
  };
}
