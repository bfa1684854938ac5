import { DASHBOARD_PATHS } from "@usage-ingestion/gateway";
import { beforeAll, describe, expect, it } from "vitest";
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

  it("routes the report paths and the dashboard to the reports service behind the load balancer", () => {
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
    ]) {
      expect(
        paths.some((pattern) => matches(pattern, path)),
        path,
      ).toBe(true);
    }
    for (const path of ["/usage/transactions", "/health", "/openapi.json"]) {
      expect(
        paths.some((pattern) => matches(pattern, path)),
        path,
      ).toBe(false);
    }
    const backend = query.resource("edge", "google_compute_backend_service", "reports");
    expect(backend.security_policy).toBe(tf("google_compute_security_policy.gateway.id"));
  });
});
