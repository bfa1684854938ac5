import type { Firestore } from "@google-cloud/firestore";
import {
  BudgetChangeSchema,
  BudgetCreateSchema,
  type BudgetView,
  budgetStatuses,
  createBudget,
  deleteBudget,
  getBudget,
  listBudgets,
  updateBudget,
} from "@usage-ingestion/budgets";
import type { ReportSource } from "@usage-ingestion/reports";
import { validationFailed } from "@usage-ingestion/shared";
import type { Request, Response } from "express";
import { ifMatch } from "../../http/etag.ts";
import { listBody, pageOf, pageQuery } from "../../http/paging.ts";
import { send } from "../../http/send.ts";
import { validated } from "../../http/validated.ts";
import type { ReportCeilings } from "../../limits/report-ceilings.ts";
import { changeOf, organizationOf } from "./change-context.ts";

/** What a budget's status is read from: the report routes' own source and ceilings. */
export interface BudgetStatusDeps {
  reports: ReportSource;
  ceilings: ReportCeilings;
  now: () => Date;
}

/** Each budget as stored (with its etag) and its status now, as `GET /usage/budgets` gives it. */
async function withStatus(deps: BudgetStatusDeps, organizationId: string, budgets: BudgetView[]) {
  const statuses = await budgetStatuses(deps.reports, organizationId, budgets, deps.now(), deps.ceilings());
  return budgets.map((budget, at) => ({
    ...statuses[at],
    created_at: budget.created_at,
    updated_at: budget.updated_at,
    etag: budget.etag,
  }));
}

const withEtag = (res: Response, budget: BudgetView) => res.set("ETag", `"${budget.etag}"`);

/** `GET /v1/orgs/{org}/budgets` (viewer): the budgets of the page, each with its status. */
export function listBudgetsRoute(db: Firestore, deps: BudgetStatusDeps) {
  return async (req: Request, res: Response) => {
    const page = pageQuery(req, res);
    if (!page) return;
    const organizationId = organizationOf(res);
    const { items, nextPageToken } = pageOf(await listBudgets(db, organizationId), page);
    res.set("Cache-Control", "no-store");
    res.status(200).json(listBody("budgets", await withStatus(deps, organizationId, items), nextPageToken));
  };
}

/** `GET /v1/orgs/{org}/budgets/{id}` (viewer): one budget and its status. */
export function getBudgetRoute(db: Firestore, deps: BudgetStatusDeps) {
  return async (req: Request, res: Response) => {
    const organizationId = organizationOf(res);
    const budget = await getBudget(db, organizationId, String(req.params.id));
    const [answer] = await withStatus(deps, organizationId, [budget]);
    withEtag(res, budget).set("Cache-Control", "no-store").status(200).json(answer);
  };
}

/** `POST /v1/orgs/{org}/budgets` (admin): 201 with the budget as stored; an id already taken is 409. */
export function createBudgetRoute(db: Firestore) {
  return async (req: Request, res: Response) => {
    const body = validated(res, BudgetCreateSchema, req.body);
    if (!body) return;
    const { id, ...input } = body;
    const budget = await createBudget(db, organizationOf(res), input, id, changeOf(res));
    withEtag(res, budget).status(201).json(budget);
  };
}

/** `PATCH /v1/orgs/{org}/budgets/{id}` (admin): replaces the fields given, honouring If-Match. */
export function updateBudgetRoute(db: Firestore) {
  return async (req: Request, res: Response) => {
    const body = validated(res, BudgetChangeSchema, req.body);
    if (!body) return;
    if (Object.values(body).every((value) => value === undefined)) {
      const message = "give at least one of name, scope, amount_usd, period, time_zone, thresholds";
      return send(res, validationFailed([{ field: "body", code: "required", message }], message));
    }
    const id = String(req.params.id);
    const budget = await updateBudget(db, organizationOf(res), id, body, changeOf(res), ifMatch(req));
    withEtag(res, budget).status(200).json(budget);
  };
}

/** `DELETE /v1/orgs/{org}/budgets/{id}` (admin), honouring If-Match; the alerts it recorded stay. */
export function deleteBudgetRoute(db: Firestore) {
  return async (req: Request, res: Response) => {
    await deleteBudget(db, organizationOf(res), String(req.params.id), changeOf(res), ifMatch(req));
    res.status(204).end();
  };
}
