import type { BudgetSource } from "@usage-ingestion/budgets";
import type { KeyStore } from "@usage-ingestion/organizations";
import type { ReconciliationReader } from "@usage-ingestion/reconciliation";
import type { RecordReader } from "@usage-ingestion/records";
import { type ReportSource, reportPageTokens } from "@usage-ingestion/reports";
import type { Logger } from "@usage-ingestion/shared/server";
import express from "express";
import { authenticate } from "./auth/authenticate.ts";
import { type AccessResolver, adminKeyAccess } from "./auth/organization-access.ts";
import { sessionOrganizationAccess } from "./auth/session/session-organization-access.ts";
import { readKeyOrSession } from "./auth/session/session-reads.ts";
import type { SignIn } from "./auth/session/sign-in.ts";
import {
  type GatewayRole,
  pageTokenKey,
  parseGatewayConfig,
  type ReportSettings,
  rateLimitConfig,
  reportSettings,
  servesIngestion,
  servesReports,
} from "./env.ts";
import { answerErrors, methodNotAllowed, notFound } from "./http/fallbacks.ts";
import { parseUsageBody, requireJsonContentType } from "./http/json-body.ts";
import { requestContext } from "./http/request-context.ts";
import { securityHeaders } from "./http/security-headers.ts";
import { send } from "./http/send.ts";
import { limitDeclaredBody, limitIngestion, limitReports } from "./limits/limit-requests.ts";
import { type RateLimitConfig, rateLimits } from "./limits/rate-limits.ts";
import { reportCeilings } from "./limits/report-ceilings.ts";
import { reportsAtOnce } from "./limits/reports-at-once.ts";
import type { CallPairing } from "./otlp/one-call-once.ts";
import type { Publisher } from "./queue/publisher.ts";
import { mountSignInRoutes } from "./routes/auth-routes.ts";
import { CONSOLE_PATHS, consoleFile } from "./routes/console.ts";
import { DASHBOARD_PATHS, dashboardFile } from "./routes/dashboard.ts";
import { ingestUsage } from "./routes/ingest-usage.ts";
import { openApi } from "./routes/openapi.ts";
import { otlpTraces } from "./routes/otlp-traces.ts";
import { usageBudgets } from "./routes/usage-budgets.ts";
import { usageCosts } from "./routes/usage-costs.ts";
import { usageReconciliation } from "./routes/usage-reconciliation.ts";
import { recordPathErrors, usageRecord, usageRecords } from "./routes/usage-records.ts";
import { usageUnpriced } from "./routes/usage-unpriced.ts";
import { type ManagementDeps, mountManagementRoutes } from "./routes/v1/management-routes.ts";

export interface GatewayDeps {
  /** What this gateway serves (GATEWAY_ROLE); absent, both. The other role's routes answer 404. */
  role?: GatewayRole;
  /** Already cached and time-bounded (see cachedKeyStore). */
  keys: KeyStore;
  /** Already time-bounded: pubSubPublisher bounds each request by PUBLISH_TIMEOUT_MS. Needed to ingest. */
  publisher?: Publisher;
  logger: Logger;
  /** X-Forwarded-For hops appended by trusted proxies (TRUST_PROXY_HOPS); absent, the configuration's default. */
  trustProxyHops?: number;
  /** Rate limits; absent, the defaults of the gateway's configuration. */
  rateLimits?: RateLimitConfig;
  /** Report ceilings and reports at once; absent, the defaults of the gateway's configuration. */
  reportSettings?: ReportSettings;
  /** The report routes' reads (see firestoreReportSource). Needed to serve the reports. */
  reports?: ReportSource;
  /** The organizations' budgets (see firestoreBudgetSource), for GET /usage/budgets beside the reports. */
  budgets?: BudgetSource;
  /** People's sign-in (createSignIn); absent, /auth and /v1/me answer 404 and the reports take keys only. */
  signIn?: SignIn;
  /** The management API's stores (routes/v1/); absent, `/v1/orgs/...` is not served. */
  management?: ManagementDeps;
  /**
   * More ways to recognise a caller of the management API, tried in order after the admin key's (which
   * decides every request carrying X-Api-Key): the sign-in work adds people's sessions here.
   */
  access?: AccessResolver[];
  /** Notes each key used, for its `last_used_at` (see keyLastUsed): a map look-up, never a write. */
  keyUsed?: (keyHash: string) => void;
  /** The stored records (see firestoreRecordReader), for GET /usage/records beside the reports. */
  records?: RecordReader;
  /** Signs the cost report's page tokens (PAGE_TOKEN_KEY); absent, the configuration's default. */
  pageTokenKey?: string;
  /** The stored comparisons with the vendors' reports (see firestoreReconciliationReader), beside the reports. */
  reconciliations?: ReconciliationReader;
  /** Where OTLP's model-call spans are paired (one call billed once); absent, the instance's memory. */
  pairing?: CallPairing;
  now?: () => Date;
}

/** Builds the HTTP app; listening happens in server.ts so tests can mount the app without a port. */
export function createApp(deps: GatewayDeps): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  const now = deps.now ?? (() => new Date());
  const defaults = parseGatewayConfig({});
  // Each trusted proxy appends the address it was reached from to X-Forwarded-For: Cloud Run's front end
  // the client's; behind the edge load balancer, the load balancer the client's and then its own. Hops
  // before those are the client's own to write, so req.ip is the one the last trusted proxy was sent by.
  app.set("trust proxy", deps.trustProxyHops ?? defaults.TRUST_PROXY_HOPS);

  const limits = rateLimits(deps.rateLimits ?? rateLimitConfig(defaults));
  const reporting = deps.reportSettings ?? reportSettings(defaults);
  app.use(requestContext(deps.logger, now));
  app.use(securityHeaders());
  // /healthz for the container's probes; /health for checks from outside, since Cloud Run's front end
  // answers some paths ending in `z` itself.
  app.get(["/health", "/healthz"], (_req, res) => {
    res.status(200).json({ status: "ok" });
  });
  app.get("/openapi.json", openApi());
  const role = deps.role ?? "both";
  if (servesIngestion(role)) {
    if (!deps.publisher) throw new Error(`a gateway that ingests (role ${role}) needs a publisher`);
    // Order of checks: request id -> API key -> content type -> a large body's declared bytes charged -> body
    // size -> JSON parse -> its shape (work) -> its charge -> validation -> publish.
    app.post(
      "/usage/transactions",
      authenticate(deps.keys, deps.logger, limits, "ingest", send, deps.keyUsed),
      requireJsonContentType,
      limitDeclaredBody(limits),
      parseUsageBody,
      limitIngestion(limits),
      ingestUsage({ publisher: deps.publisher, logger: deps.logger }),
    );
    app.all("/usage/transactions", methodNotAllowed("POST"));
    // OTLP/HTTP traces: each model-call span becomes a transaction on the same path (docs/opentelemetry.md).
    app.post(
      "/v1/traces",
      otlpTraces({
        keys: deps.keys,
        publisher: deps.publisher,
        logger: deps.logger,
        limits,
        keyUsed: deps.keyUsed,
        ...(deps.pairing ? { pairing: deps.pairing } : {}),
      }),
    );
    app.all("/v1/traces", methodNotAllowed("POST"));
  }
  // One pool of groups per instance, shared by the reports and the budgets' status in the management API.
  const newReportCeiling = reportCeilings(reporting, reporting.groupsPerInstance);
  if (role === "reports" && !deps.reports) throw new Error("a gateway of role reports needs a report source");
  if (servesReports(role) && deps.reports) {
    // An admin key acts as the role admin, which may read costs: the report routes take it too.
    const byKey = authenticate(deps.keys, deps.logger, limits, ["read", "admin"], send, deps.keyUsed);
    const readKey = [
      deps.signIn ? readKeyOrSession(deps.signIn, byKey) : byKey,
      limitReports(limits),
      reportsAtOnce(reporting.atOnce, reporting.timeoutMs),
    ];
    const costPages = reportPageTokens(deps.pageTokenKey ?? pageTokenKey(defaults));
    app.get("/usage/costs", readKey, usageCosts(deps.reports, now, newReportCeiling, costPages));
    app.all("/usage/costs", methodNotAllowed("GET"));
    app.get("/usage/unpriced", readKey, usageUnpriced(deps.reports, now, newReportCeiling));
    app.all("/usage/unpriced", methodNotAllowed("GET"));
    if (deps.budgets) {
      app.get("/usage/budgets", readKey, usageBudgets(deps.budgets, deps.reports, now, newReportCeiling));
      app.all("/usage/budgets", methodNotAllowed("GET"));
    }
    if (deps.records) {
      app.get("/usage/records", readKey, usageRecords(deps.records, now, newReportCeiling));
      app.all("/usage/records", methodNotAllowed("GET"));
      app.get("/usage/records/:message_id", readKey, usageRecord(deps.records, reporting.timeoutMs));
      app.all("/usage/records/:message_id", methodNotAllowed("GET"));
      app.use("/usage/records", recordPathErrors);
    }
    if (deps.reconciliations) {
      app.get("/usage/reconciliation", readKey, usageReconciliation(deps.reconciliations, now, newReportCeiling));
      app.all("/usage/reconciliation", methodNotAllowed("GET"));
    }
    app.get(DASHBOARD_PATHS, dashboardFile);
  }
  if (servesReports(role) && deps.signIn) {
    mountSignInRoutes(app, deps.signIn, deps.logger);
    // The console, for people signed in: without sign-in it could not do anything.
    app.get(CONSOLE_PATHS, consoleFile);
  }
  if (servesReports(role) && deps.management) {
    // Keys first, then any given resolvers, then people's sessions where sign-in is configured.
    const resolvers = [
      adminKeyAccess(deps.keys, deps.logger, limits, deps.keyUsed),
      ...(deps.access ?? []),
      ...(deps.signIn ? [sessionOrganizationAccess(deps.signIn)] : []),
    ];
    // A budget's status is read as GET /usage/budgets reads it: the same source, ceilings and clock.
    const budgetStatus = deps.reports ? { reports: deps.reports, ceilings: newReportCeiling, now } : undefined;
    mountManagementRoutes(app, { ...(budgetStatus ? { budgetStatus } : {}), ...deps.management }, resolvers, limits);
  }
  app.use(notFound);
  app.use(answerErrors(deps.logger));
  return app;
}
