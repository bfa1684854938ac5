import { randomBytes } from "node:crypto";
import type { Firestore } from "@google-cloud/firestore";
import { getOrganization } from "@usage-ingestion/organizations";
import { DOCUMENT_PATHS, toFieldErrors, UserError } from "@usage-ingestion/shared";
import { isAlreadyExists } from "@usage-ingestion/shared/server";
import * as v from "valibot";
import {
  BUDGET_ID,
  type BudgetChange,
  BudgetChangeSchema,
  type BudgetDocument,
  BudgetInputSchema,
  budgetDocument,
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

export async function createBudget(
  db: Firestore,
  organizationId: string,
  input: Record<string, unknown>,
  id: string = newId(),
  now = new Date(),
): Promise<BudgetDocument> {
  if (!BUDGET_ID.test(id)) throw new UserError("--id: must be 1-64 letters, digits, _ or -");
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
    });
  } catch (error) {
    if (isAlreadyExists(error)) throw new UserError(`budget ${id} of ${organizationId} already exists`);
    throw error;
  }
  return budget;
}

export async function listBudgets(db: Firestore, organizationId: string): Promise<BudgetDocument[]> {
  await getOrganization(db, organizationId);
  const snap = await db.collection(DOCUMENT_PATHS.budgets(organizationId)).orderBy("__name__").get();
  return snap.docs.map((doc) => budgetFromDocument(doc.data()));
}

export async function getBudget(db: Firestore, organizationId: string, id: string): Promise<BudgetDocument> {
  const snap = await db.doc(DOCUMENT_PATHS.budget(organizationId, id)).get();
  if (!snap.exists) throw new UserError(`budget ${id} of ${organizationId} does not exist`);
  return budgetFromDocument(snap.data() as Record<string, unknown>);
}

/** Replaces the fields the change names; the result is validated whole, as a new budget would be. */
export async function updateBudget(
  db: Firestore,
  organizationId: string,
  id: string,
  change: Record<string, unknown>,
  now = new Date(),
): Promise<BudgetDocument> {
  const parsed = v.safeParse(BudgetChangeSchema, change);
  if (!parsed.success) throw invalid(parsed.issues);
  const ref = db.doc(DOCUMENT_PATHS.budget(organizationId, id));
  return db.runTransaction(async (transaction) => {
    const snap = await transaction.get(ref);
    if (!snap.exists) throw new UserError(`budget ${id} of ${organizationId} does not exist`);
    const stored = budgetFromDocument(snap.data() as Record<string, unknown>);
    const fields = Object.fromEntries(Object.entries(parsed.output).filter(([, value]) => value !== undefined));
    const merged = { ...stored, ...(fields as Partial<BudgetChange>) };
    const { id: _id, created_at, updated_at: _updated, ...input } = merged;
    const whole = v.parse(BudgetInputSchema, input);
    const budget = budgetDocument(id, whole, created_at, now.toISOString());
    await checkScope(db, organizationId, budget);
    transaction.set(ref, budget);
    return budget;
  });
}

/** Deletes the budget; the alerts it recorded stay in the outbox. The last one unmarks the organization. */
export async function deleteBudget(db: Firestore, organizationId: string, id: string): Promise<void> {
  const ref = db.doc(DOCUMENT_PATHS.budget(organizationId, id));
  // With the organization read and written, as a create does: a create at the same time is either seen
  // here (the mark stays) or comes after (and sets it again).
  await db.runTransaction(async (transaction) => {
    const organization = db.doc(DOCUMENT_PATHS.organization(organizationId));
    await transaction.get(organization);
    if (!(await transaction.get(ref)).exists) throw new UserError(`budget ${id} of ${organizationId} does not exist`);
    const some = await transaction.get(db.collection(DOCUMENT_PATHS.budgets(organizationId)).limit(2));
    transaction.delete(ref);
    transaction.update(organization, { has_budgets: some.docs.some((doc) => doc.id !== id) });
  });
}
