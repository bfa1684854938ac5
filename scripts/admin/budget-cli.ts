import type { Firestore } from "@google-cloud/firestore";
import type { ChangeContext } from "@usage-ingestion/audit";
import type { BudgetDocument } from "@usage-ingestion/budgets";
import {
  budgetStatuses,
  createBudget,
  deleteBudget,
  getBudget,
  listBudgets,
  updateBudget,
} from "@usage-ingestion/budgets";
import { firestoreReportSource } from "@usage-ingestion/reports";
import { UserError } from "@usage-ingestion/shared";
import { options } from "./pricing-cli.ts";

type Out = (line: string) => void;

export const BUDGET_HELP = `Budgets (docs/budgets.md)
  budget create <org-id> --amount USD --period day|week|month|Nd [--time-zone ZONE]
                [--thresholds 50,80,100] [--name NAME] [--id ID] [--customer ID] [--provider P]
                [--model M] [--dimension NAME=VALUE]
                                      a budget on a scope (no scope flag: the whole organization)
  budget list <org-id>                id, period, zone, amount, thresholds, scope, name
  budget show <org-id> <id>           the budget and its status now (spent, percent, forecast), JSON
  budget update <org-id> <id> [the create flags] [--whole-organization]
                                      replaces the fields given; any scope flag replaces the scope
  budget delete <org-id> <id>         delete it (the alerts it recorded stay)`;

const VALUE_FLAGS = [
  "--amount",
  "--period",
  "--time-zone",
  "--thresholds",
  "--name",
  "--id",
  "--customer",
  "--provider",
  "--model",
  "--dimension",
];

function thresholds(text: string): unknown[] {
  return text.split(",").map((part) => (/^\s*\d+(\.\d+)?\s*$/.test(part) ? Number(part) : part));
}

/** The budget fields the flags give; `scope` only when a scope flag is given. */
function fieldsOf(values: Record<string, string>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (values["--amount"] !== undefined) fields.amount_usd = values["--amount"];
  if (values["--period"] !== undefined) fields.period = values["--period"];
  if (values["--time-zone"] !== undefined) fields.time_zone = values["--time-zone"];
  if (values["--thresholds"] !== undefined) fields.thresholds = thresholds(values["--thresholds"]);
  if (values["--name"] !== undefined) fields.name = values["--name"];
  const scope: Record<string, unknown> = {};
  if (values["--customer"] !== undefined) scope.customer = values["--customer"];
  if (values["--provider"] !== undefined) scope.provider = values["--provider"];
  if (values["--model"] !== undefined) scope.model = values["--model"];
  const dimension = values["--dimension"];
  if (dimension !== undefined) {
    const at = dimension.indexOf("=");
    if (at <= 0) throw new UserError("--dimension: must be NAME=VALUE, such as feature=chat");
    scope.dimension = { name: dimension.slice(0, at), value: dimension.slice(at + 1) };
  }
  if (Object.keys(scope).length > 0 || values["--whole-organization"]) fields.scope = scope;
  return fields;
}

const scopeText = (budget: BudgetDocument) => {
  const { customer, provider, model, dimension } = budget.scope;
  const parts = [
    customer !== undefined ? `customer=${customer}` : "",
    provider !== undefined ? `provider=${provider}` : "",
    model !== undefined ? `model=${model}` : "",
    dimension !== undefined ? `context.${dimension.name}=${dimension.value}` : "",
  ].filter(Boolean);
  return parts.join(",") || "organization";
};

const line = (budget: BudgetDocument) =>
  [
    budget.id,
    budget.period,
    budget.time_zone,
    budget.amount_usd,
    budget.thresholds.join(","),
    scopeText(budget),
    budget.name ?? "-",
  ].join("\t");

/** `admin budget ...`: manage an organization's budgets; `change` names the operator in the audit log. */
export async function runBudgetCommand(
  action: string,
  args: string[],
  db: Firestore,
  reportsDb: Firestore,
  out: Out,
  change: ChangeContext,
) {
  const flags = action === "update" ? ["--whole-organization"] : [];
  const valueFlags =
    action === "create" ? VALUE_FLAGS : action === "update" ? VALUE_FLAGS.filter((flag) => flag !== "--id") : [];
  const { values, positional } = options(args, valueFlags, flags);
  const [organizationId, id] = positional;
  const usage = BUDGET_HELP.split("\n").find((text) => text.trim().startsWith(`budget ${action}`));
  const need = (count: number) => {
    const synopsis = usage?.trim().split(/\s{2,}/)[0] ?? "budget";
    if (positional.length !== count) throw new UserError(`usage: npm run admin -- ${synopsis}`);
  };
  switch (action) {
    case "create": {
      need(1);
      const budget = await createBudget(db, organizationId as string, fieldsOf(values), values["--id"], change);
      return out(`created budget ${budget.id} of ${organizationId}: ${line(budget)}`);
    }
    case "list": {
      need(1);
      const budgets = await listBudgets(db, organizationId as string);
      if (budgets.length === 0) return out("no budgets");
      for (const budget of budgets) out(line(budget));
      return;
    }
    case "show": {
      need(2);
      const budget = await getBudget(db, organizationId as string, id as string);
      const source = firestoreReportSource(reportsDb);
      const [status] = await budgetStatuses(source, organizationId as string, [budget], new Date());
      return out(JSON.stringify({ ...status, created_at: budget.created_at, updated_at: budget.updated_at }, null, 2));
    }
    case "update": {
      need(2);
      const fields = fieldsOf(values);
      if (Object.keys(fields).length === 0) throw new UserError("budget update: give at least one field to change");
      const budget = await updateBudget(db, organizationId as string, id as string, fields, change);
      return out(`updated budget ${budget.id} of ${organizationId}: ${line(budget)}`);
    }
    case "delete": {
      need(2);
      await deleteBudget(db, organizationId as string, id as string, change);
      return out(`deleted budget ${id} of ${organizationId}`);
    }
    default:
      throw new UserError(`unknown command "budget ${action}"\n\n${BUDGET_HELP}`);
  }
}
