import type { Firestore } from "@google-cloud/firestore";
import type { Databases } from "@usage-ingestion/organizations";
import type { RecordsFeed } from "@usage-ingestion/records";
import type express from "express";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { type AccessResolver, organizationAccess, requireRole } from "../../auth/organization-access.ts";
import { methodNotAllowed } from "../../http/fallbacks.ts";
import { parseJsonBody, requireJsonContentType } from "../../http/json-body.ts";
import { limitReports } from "../../limits/limit-requests.ts";
import type { RateLimits } from "../../limits/rate-limits.ts";
import { createApiKeyRoute } from "./api-keys-create.ts";
import { listApiKeysRoute } from "./api-keys-list.ts";
import { updateApiKeyRoute } from "./api-keys-update.ts";
import { auditLogRoute } from "./audit-log.ts";
import {
  type BudgetStatusDeps,
  createBudgetRoute,
  deleteBudgetRoute,
  getBudgetRoute,
  listBudgetsRoute,
  updateBudgetRoute,
} from "./budgets.ts";
import { deleteConnectionRoute, listConnectionsRoute, putConnectionRoute } from "./connections.ts";
import { getDimensionsRoute, putDimensionsRoute } from "./dimensions.ts";
import { getOrganizationRoute } from "./organization.ts";
import { createPriceRoute, deletePriceRoute, listPricesRoute } from "./prices.ts";
import { getRunRoute, requestRunRoute } from "./reconciliation-runs.ts";
import { getSettingsRoute, putSettingsRoute } from "./reconciliation-settings.ts";
import { repriceRoute } from "./reprice.ts";
import {
  createWebhookRoute,
  deleteWebhookRoute,
  listDeliveriesRoute,
  listWebhooksRoute,
  replayDeliveryRoute,
  rotateSecretRoute,
  updateWebhookRoute,
  type WebhookDeps,
} from "./webhooks.ts";

/** What the management API writes to: the same stores the admin command line uses. */
export interface ManagementDeps {
  /** Records (organizations, prices, budgets, webhooks, the audit log) and the keys database. */
  databases: Databases;
  /** Where `reprice` publishes the records it re-priced (BigQuery); absent, they are left for `records publish`. */
  recordsFeed?: RecordsFeed;
  /** Where a budget's status is read (the report routes' source); absent, the budget routes are not served. */
  budgetStatus?: BudgetStatusDeps;
  /** The secret box and the deliveries queue; absent, the webhook routes are not served. */
  webhooks?: WebhookDeps;
}

/** A body is optional (`reprice`): none is `{}`, one is JSON as anywhere else. */
function optionalJsonBody(req: Request, res: Response, next: NextFunction) {
  const announced = req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0";
  if (!announced && req.headers["transfer-encoding"] === undefined) {
    req.body = {};
    return next();
  }
  requireJsonContentType(req, res, () => parseJsonBody(req, res, next));
}

/**
 * The management API's routes under `/v1/orgs/{org}` (docs/management-api.md). Every route: the caller's
 * access (an admin key, or a resolver of `resolvers`), its role, the rate limit of the report routes per key,
 * then for changes the JSON body; only then the route, which composes the domain packages.
 */
export function mountManagementRoutes(
  app: express.Express,
  deps: ManagementDeps,
  resolvers: readonly AccessResolver[],
  limits: RateLimits,
) {
  const { databases } = deps;
  const records: Firestore = databases.records;
  const access = organizationAccess(resolvers);
  const limit = limitReports(limits);
  const json = [requireJsonContentType, parseJsonBody];
  const read = (handler: RequestHandler) => [access, requireRole("viewer"), limit, handler];
  const write = (handler: RequestHandler, body: RequestHandler[] = json) => [
    access,
    requireRole("admin"),
    limit,
    ...body,
    handler,
  ];
  const base = "/v1/orgs/:org";
  app.get(base, read(getOrganizationRoute(databases)));
  app.all(base, methodNotAllowed("GET"));

  app.get(`${base}/api-keys`, read(listApiKeysRoute(databases)));
  app.post(`${base}/api-keys`, write(createApiKeyRoute(databases)));
  app.all(`${base}/api-keys`, methodNotAllowed("GET, POST"));
  app.patch(`${base}/api-keys/:id`, write(updateApiKeyRoute(databases)));
  app.all(`${base}/api-keys/:id`, methodNotAllowed("PATCH"));

  app.get(`${base}/dimensions`, read(getDimensionsRoute(databases)));
  app.put(`${base}/dimensions`, write(putDimensionsRoute(databases)));
  app.all(`${base}/dimensions`, methodNotAllowed("GET, PUT"));

  app.get(`${base}/prices`, read(listPricesRoute(records)));
  app.post(`${base}/prices`, write(createPriceRoute(records)));
  app.all(`${base}/prices`, methodNotAllowed("GET, POST"));
  app.delete(`${base}/prices/:id`, write(deletePriceRoute(records), []));
  app.all(`${base}/prices/:id`, methodNotAllowed("DELETE"));

  if (deps.budgetStatus) {
    app.get(`${base}/budgets`, read(listBudgetsRoute(records, deps.budgetStatus)));
    app.post(`${base}/budgets`, write(createBudgetRoute(records)));
    app.all(`${base}/budgets`, methodNotAllowed("GET, POST"));
    app.get(`${base}/budgets/:id`, read(getBudgetRoute(records, deps.budgetStatus)));
    app.patch(`${base}/budgets/:id`, write(updateBudgetRoute(records)));
    app.delete(`${base}/budgets/:id`, write(deleteBudgetRoute(records), []));
    app.all(`${base}/budgets/:id`, methodNotAllowed("GET, PATCH, DELETE"));
  }

  if (deps.webhooks) {
    const hooks = deps.webhooks;
    app.get(`${base}/webhooks`, read(listWebhooksRoute(records)));
    app.post(`${base}/webhooks`, write(createWebhookRoute(records, hooks)));
    app.all(`${base}/webhooks`, methodNotAllowed("GET, POST"));
    app.patch(`${base}/webhooks/:id`, write(updateWebhookRoute(records)));
    app.delete(`${base}/webhooks/:id`, write(deleteWebhookRoute(records), []));
    app.all(`${base}/webhooks/:id`, methodNotAllowed("PATCH, DELETE"));
    app.post(`${base}/webhooks/:id/rotate-secret`, write(rotateSecretRoute(records, hooks), [optionalJsonBody]));
    app.all(`${base}/webhooks/:id/rotate-secret`, methodNotAllowed("POST"));
    app.get(`${base}/webhooks/:id/deliveries`, read(listDeliveriesRoute(records)));
    app.all(`${base}/webhooks/:id/deliveries`, methodNotAllowed("GET"));
    app.post(`${base}/webhooks/:id/deliveries/:delivery_id/replay`, write(replayDeliveryRoute(records, hooks), []));
    app.all(`${base}/webhooks/:id/deliveries/:delivery_id/replay`, methodNotAllowed("POST"));
  }

  app.get(`${base}/connections`, read(listConnectionsRoute(records)));
  app.all(`${base}/connections`, methodNotAllowed("GET"));
  app.put(`${base}/connections/:vendor`, write(putConnectionRoute(records, deps.webhooks?.box)));
  app.delete(`${base}/connections/:vendor`, write(deleteConnectionRoute(records), []));
  app.all(`${base}/connections/:vendor`, methodNotAllowed("PUT, DELETE"));

  app.post(`${base}/reconciliation/runs`, write(requestRunRoute(records, () => new Date())));
  app.all(`${base}/reconciliation/runs`, methodNotAllowed("POST"));
  app.get(`${base}/reconciliation/runs/:id`, read(getRunRoute(records)));
  app.all(`${base}/reconciliation/runs/:id`, methodNotAllowed("GET"));
  app.get(`${base}/reconciliation/settings`, read(getSettingsRoute(records)));
  app.put(`${base}/reconciliation/settings`, write(putSettingsRoute(records)));
  app.all(`${base}/reconciliation/settings`, methodNotAllowed("GET, PUT"));

  app.post(`${base}/reprice`, write(repriceRoute(records, deps.recordsFeed), [optionalJsonBody]));
  app.all(`${base}/reprice`, methodNotAllowed("POST"));

  app.get(`${base}/audit-log`, read(auditLogRoute(databases)));
  app.all(`${base}/audit-log`, methodNotAllowed("GET"));
}
