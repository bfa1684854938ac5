import { randomBytes } from "node:crypto";
import type { Firestore } from "@google-cloud/firestore";
import { type ChangeContext, operatorChange, recordChange } from "@usage-ingestion/audit";
import { getOrganization } from "@usage-ingestion/organizations";
import { ConflictError, DOCUMENT_PATHS, NotFoundError, toFieldErrors, UserError } from "@usage-ingestion/shared";
import { checkIfMatch, etagOf, isAlreadyExists } from "@usage-ingestion/shared/server";
import * as v from "valibot";
import {
  type BudgetChange,
  BudgetChangeSchema,
  type BudgetDocument,
  BudgetInputSchema,
  budgetDocument,
  isBudgetId,
  MAX_BUDGETS_PER_ORGANIZATION,
} from "./budget.ts";
import { budgetFromDocument } from "./budget-source.ts";

/** How each field is named on the command line, for messages about it. */
const FLAG_OF: Record<string, string> = {
  name: "--name",
  amount_usd: "--amount",
  period: "--period",
  time_zone: "--time-zone",
  thresholds: "--thresholds",
  "scope.customer": "--customer",
  "scope.provider": "--provider",
  "scope.model": "--model",
  "scope.dimension.name": "--dimension",
  "scope.dimension.value": "--dimension",
};

function invalid(issues: v.BaseIssue<unknown>[]): UserError {
  const lines = toFieldErrors(issues).map(({ field, message }) => {
    const flag = FLAG_OF[field] ?? FLAG_OF[field.replace(/\.\d+$/, "")] ?? field;
    return `${flag}: ${message}`;
  });
  return new UserError(lines.join("\n"));
}

/** A dimension scope must name a context dimension the organization declared: reports know no other. */
async function checkScope(db: Firestore, organizationId: string, budget: Pick<BudgetDocument, "scope">) {
  const organization = await getOrganization(db, organizationId);
  const name = budget.scope.dimension?.name;
  const declared = organization.dimensions ?? [];
  if (name !== undefined && !declared.includes(name)) {
    throw new UserError(
      `--dimension: ${name} is not a declared context dimension of ${organizationId}; declared: ${declared.join(", ") || "none"} (admin org dimensions set)`,
    );
  }
}

const newId = () => `bud_${randomBytes(8).toString("hex")}`;

/** A budget with its version: the management API's `etag`, which `If-Match` names. */
export type BudgetView = BudgetDocument & { etag: string };
export const budgetView = (budget: BudgetDocument): BudgetView => ({ ...budget, etag: etagOf(budget) });

const missing = (organizationId: string, id: string) =>
  new NotFoundError(`budget ${id} of ${organizationId} does not exist`);
const target = (id: string) => ({ type: "budget", id });

/**
 * Creates a budget and its `budget.created` entry in one transaction. `change` names who does it; absent,
 * an operator of unknown name (the test harness, the local stack's seeding).
 */
export async function createBudget(
  db: Firestore,
  organizationId: string,
  input: Record<string, unknown>,
  id: string = newId(),
  change: ChangeContext = operatorChange(),
  now = new Date(),
): Promise<BudgetView> {
  if (!isBudgetId(id)) throw new UserError("--id: must be 1-64 letters, digits, _ or -");
  const parsed = v.safeParse(BudgetInputSchema, input);
  if (!parsed.success) throw invalid(parsed.issues);
  const budget = budgetDocument(id, parsed.output, now.toISOString());
  await checkScope(db, organizationId, budget);
  try {
    // One transaction that reads and writes the organization: two creates at once serialize on it, so the
    // count holds and the mark is set with the budget.
    await db.runTransaction(async (transaction) => {
      const organization = db.doc(DOCUMENT_PATHS.organization(organizationId));
      await transaction.get(organization);
      const held = await transaction.get(db.collection(DOCUMENT_PATHS.budgets(organizationId)).count());
      if (held.data().count >= MAX_BUDGETS_PER_ORGANIZATION) {
        throw new UserError(
          `${organizationId} holds ${MAX_BUDGETS_PER_ORGANIZATION} budgets, the most one organization may`,
        );
      }
      transaction.create(db.doc(DOCUMENT_PATHS.budget(organizationId, id)), budget);
      transaction.update(organization, { has_budgets: true });
      recordChange(
        transaction,
        db,
        organizationId,
        change,
        { action: "budget.created", target: target(id), after: budget },
        now,
      );
    });
  } catch (error) {
    if (isAlreadyExists(error)) throw new ConflictError(`budget ${id} of ${organizationId} already exists`);
    throw error;
  }
  return budgetView(budget);
}

export async function listBudgets(db: Firestore, organizationId: string): Promise<BudgetView[]> {
  await getOrganization(db, organizationId);
  const snap = await db.collection(DOCUMENT_PATHS.budgets(organizationId)).orderBy("__name__").get();
  return snap.docs.map((doc) => budgetView(budgetFromDocument(doc.data())));
}

export async function getBudget(db: Firestore, organizationId: string, id: string): Promise<BudgetView> {
  // An id no budget can have (from a URL) names none, and must not reach a document path.
  if (!isBudgetId(id)) throw missing(organizationId, id);
  const snap = await db.doc(DOCUMENT_PATHS.budget(organizationId, id)).get();
  if (!snap.exists) throw missing(organizationId, id);
  return budgetView(budgetFromDocument(snap.data() as Record<string, unknown>));
}

/**
 * Replaces the fields `fields` names; the result is validated whole, as a new budget would be. With
 * `expectedEtag` (If-Match), a budget changed since it was read is a ConflictError, checked in the write's
 * own transaction.
 */
export async function updateBudget(
  db: Firestore,
  organizationId: string,
  id: string,
  fields: Record<string, unknown>,
  change: ChangeContext = operatorChange(),
  expectedEtag?: string,
  now = new Date(),
): Promise<BudgetView> {
  const parsed = v.safeParse(BudgetChangeSchema, fields);
  if (!parsed.success) throw invalid(parsed.issues);
  if (!isBudgetId(id)) throw missing(organizationId, id);
  const ref = db.doc(DOCUMENT_PATHS.budget(organizationId, id));
  return db.runTransaction(async (transaction) => {
    const snap = await transaction.get(ref);
    if (!snap.exists) throw missing(organizationId, id);
    const stored = budgetFromDocument(snap.data() as Record<string, unknown>);
    checkIfMatch(expectedEtag, etagOf(stored), `budget ${id}`);
    const given = Object.fromEntries(Object.entries(parsed.output).filter(([, value]) => value !== undefined));
    const merged = { ...stored, ...(given as Partial<BudgetChange>) };
    const { id: _id, created_at, updated_at: _updated, ...input } = merged;
    const whole = v.parse(BudgetInputSchema, input);
    const budget = budgetDocument(id, whole, created_at, now.toISOString());
    await checkScope(db, organizationId, budget);
    transaction.set(ref, budget);
    recordChange(
      transaction,
      db,
      organizationId,
      change,
      { action: "budget.updated", target: target(id), before: stored, after: budget },
      now,
    );
    return budgetView(budget);
  });
}

/**
 * Deletes the budget with its `budget.deleted` entry; the alerts it recorded stay in the outbox. The last
 * one unmarks the organization. `expectedEtag` as for updateBudget.
 */
export async function deleteBudget(
  db: Firestore,
  organizationId: string,
  id: string,
  change: ChangeContext = operatorChange(),
  expectedEtag?: string,
  now = new Date(),
): Promise<void> {
  if (!isBudgetId(id)) throw missing(organizationId, id);
  const ref = db.doc(DOCUMENT_PATHS.budget(organizationId, id));
  // With the organization read and written, as a create does: a create at the same time is either seen
  // here (the mark stays) or comes after (and sets it again).
  await db.runTransaction(async (transaction) => {
    const organization = db.doc(DOCUMENT_PATHS.organization(organizationId));
    await transaction.get(organization);
    const snap = await transaction.get(ref);
    if (!snap.exists) throw missing(organizationId, id);
    const stored = budgetFromDocument(snap.data() as Record<string, unknown>);
    checkIfMatch(expectedEtag, etagOf(stored), `budget ${id}`);
    const some = await transaction.get(db.collection(DOCUMENT_PATHS.budgets(organizationId)).limit(2));
    transaction.delete(ref);
    transaction.update(organization, { has_budgets: some.docs.some((doc) => doc.id !== id) });
    recordChange(
      transaction,
      db,
      organizationId,
      change,
      { action: "budget.deleted", target: target(id), before: stored },
      now,
    );
  });
}
