import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DASHBOARD_PATHS } from "@usage-ingestion/gateway";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/lib/services.ts";
import { type Hcl, infraQuery, parseInfra, tf } from "./hcl.ts";

/**
 * One gateway image deployed twice (GATEWAY_ROLE): usage-gateway ingests, usage-reports serves the reports
 * and the dashboard with its own scaling and memory; the optional load balancer sends each path to its own.
 */
let query: ReturnType<typeof infraQuery>;
beforeAll(async () => {
  query = infraQuery(await parseInfra());
});

/** Whether a URL map path (`/dashboard/*` style) matches a request path. */
const matches = (pattern: string, path: string) =>
  pattern.endsWith("/*") ? path.startsWith(pattern.slice(0, -1)) : pattern === path;

/** The management API's paths in the published document, each `{name}` filled with a sample value. */
const managementPaths = () => {
  const document = JSON.parse(readFileSync(join(REPO_ROOT, "docs", "openapi.json"), "utf8")) as {
    paths: Record<string, unknown>;
  };
  const paths = Object.keys(document.paths).filter((path) => path.startsWith("/v1/orgs/"));
  if (!paths.some((path) => path.includes("/webhooks"))) throw new Error("docs/openapi.json holds no webhook path");
  return paths.map((path) => path.replace(/\{[A-Za-z_]+\}/g, "x1"));
};

describe("the gateway's two deployments", () => {
  it("sets GATEWAY_ROLE from the module's role, both by default", () => {
    const environment = query.local("modules/gateway", "environment");
    expect(environment.GATEWAY_ROLE).toBe(tf("var.role"));
    expect(query.variable("modules/gateway", "role").default).toBe("both");
    expect(query.resource("gateway", "google_cloud_run_v2_service", "gateway").name).toBe(tf("var.service_name"));
  });

  it("runs ingestion and reports as two services of the one image, the reports with more memory", () => {
    const ingest = query.exampleModule("gateway");
    const reports = query.exampleModule("reports");
    expect([ingest.source, reports.source]).toEqual(["../../modules/gateway", "../../modules/gateway"]);
    expect([ingest.role, reports.role]).toEqual(["ingest", "reports"]);
    expect(reports.image).toBe(ingest.image);
    expect(reports.service_name).not.toBe(query.variable("modules/gateway", "service_name").default);
    expect(ingest.service_name).toBeUndefined();
    expect(reports.memory).toBe("1Gi");
    // The reports sign the records listing's page tokens with the key from Secret Manager; ingestion needs none.
    expect(reports.page_token_key_secret).toBe(tf("module.iam.page_token_key_secret"));
    expect(ingest.page_token_key_secret).toBeUndefined();
    expect(query.variable("modules/gateway", "page_token_key_secret").default).toBeNull();
    const service = query.resource("gateway", "google_cloud_run_v2_service", "gateway");
    expect(service.lifecycle[0].precondition[0].condition).toBe(
      tf('var.role == "ingest" || var.page_token_key_secret != null'),
    );
    expect(reports.concurrency).toBeLessThan(query.variable("modules/gateway", "concurrency").default);
    expect(query.output("envs/example", "reports_url").value).toBe(
      tf("var.enable_load_balancer ? module.edge[0].url : module.reports.url"),
    );
  });

  it("routes every path the reports role serves to the reports service behind the load balancer", () => {
    expect(query.exampleModule("edge").reports_service_name).toBe(tf("module.reports.service_name"));
    const map = query.resource("edge", "google_compute_url_map", "gateway");
    expect(map.default_service).toBe(tf("google_compute_backend_service.gateway.id"));
    const matcher = map.dynamic.path_matcher[0].content[0];
    expect(matcher.default_service).toBe(tf("google_compute_backend_service.gateway.id"));
    const rule = matcher.path_rule[0] as Hcl;
    expect(rule.service).toBe(tf("google_compute_backend_service.reports[0].id"));
    const paths = rule.paths as string[];
    for (const path of [
      "/usage/costs",
      "/usage/unpriced",
      "/usage/budgets",
      "/usage/records",
      "/usage/records/123",
      ...DASHBOARD_PATHS,
      // The management API and sign-in, as /openapi.json describes them ({org} and {id} filled in).
      ...managementPaths(),
      "/v1/me",
      "/auth/login",
      "/auth/callback",
      "/auth/logout",
      // The console, served next by the reports role.
      "/console",
      "/console/costs",
    ]) {
      expect(
        paths.some((pattern) => matches(pattern, path)),
        path,
      ).toBe(true);
    }
    for (const path of ["/usage/transactions", "/v1/traces", "/health", "/openapi.json"]) {
      expect(
        paths.some((pattern) => matches(pattern, path)),
        path,
      ).toBe(false);
    }
    const backend = query.resource("edge", "google_compute_backend_service", "reports");
    expect(backend.security_policy).toBe(tf("google_compute_security_policy.gateway.id"));
  });
});
