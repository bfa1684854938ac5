import { beforeAll, describe, expect, it } from "vitest";
import { type Hcl, infraQuery, parseInfra, tf } from "./hcl.ts";

/**
 * The optional edge in front of the gateway (HTTPS load balancer with Cloud Armor), offline on the parsed
 * Terraform. infra/README.md, "Security", says why it is as it is.
 */
let files = new Map<string, Hcl>();
const query = () => infraQuery(files);
const inFolder = (folder: string) => query().inFolder(folder);
const resource = (module: string, type: string, name: string) => query().resource(module, type, name);
const variable = (folder: string, name: string) => query().variable(folder, name);
const output = (folder: string, name: string) => query().output(folder, name);
const exampleModule = (name: string) => query().exampleModule(name);

/** Evaluates a conditional on one boolean variable, `${var.flag ? "a" : "b"}`, for a value of the flag. */
function choose(expression: string, flag: string, value: boolean): unknown {
  const match = new RegExp(`^\\$\\{var\\.${flag} \\? (.+) : (.+)\\}$`).exec(expression);
  if (!match) throw new Error(`not a conditional on var.${flag}: ${expression}`);
  return JSON.parse((value ? match[1] : match[2]) ?? "");
}

beforeAll(async () => {
  files = await parseInfra();
});

describe("the optional edge (HTTPS load balancer with Cloud Armor)", () => {
  const THRESHOLDS = [
    "rate_limit_count",
    "rate_limit_interval_sec",
    "ban_threshold_count",
    "ban_threshold_interval_sec",
    "ban_duration_sec",
  ];

  it("is off by default: no edge resource at all", () => {
    expect(variable("envs/example", "enable_load_balancer").default).toBe(false);
    const edge = exampleModule("edge");
    expect(edge.source).toBe("../../modules/edge");
    expect(choose(edge.count, "enable_load_balancer", false)).toBe(0);
    expect(choose(edge.count, "enable_load_balancer", true)).toBe(1);
  });

  it("throttles and bans per client IP at thresholds the variables set", () => {
    const policy = resource("edge", "google_compute_security_policy", "gateway");
    const rule = policy.rule.find((r: Hcl) => r.rate_limit_options);
    expect(rule).toBeDefined();
    expect(rule.action).toBe("rate_based_ban");
    expect(rule.match[0].config[0].src_ip_ranges).toEqual(["*"]);
    const options = rule.rate_limit_options[0];
    expect(options).toMatchObject({ conform_action: "allow", exceed_action: "deny(429)", enforce_on_key: "IP" });
    expect(options.rate_limit_threshold[0]).toEqual({
      count: tf("var.rate_limit_count"),
      interval_sec: tf("var.rate_limit_interval_sec"),
    });
    expect(options.ban_threshold[0]).toEqual({
      count: tf("var.ban_threshold_count"),
      interval_sec: tf("var.ban_threshold_interval_sec"),
    });
    expect(options.ban_duration_sec).toBe(tf("var.ban_duration_sec"));
    for (const name of THRESHOLDS) {
      const declared = variable("modules/edge", name);
      expect(declared.default, name).toBeGreaterThan(0);
      expect(declared.nullable, name).toBe(false);
      expect(exampleModule("edge")[name], name).toBe(tf(`var.edge_${name}`));
      expect(variable("envs/example", `edge_${name}`).default, name).toBeNull();
    }
  });

  it("applies the policy to the gateway's backend, served over HTTPS only", () => {
    const backend = resource("edge", "google_compute_backend_service", "gateway");
    expect(backend.security_policy).toBe(tf("google_compute_security_policy.gateway.id"));
    expect(backend.backend[0].group).toBe(tf("google_compute_region_network_endpoint_group.gateway.id"));
    const neg = resource("edge", "google_compute_region_network_endpoint_group", "gateway");
    expect(neg.cloud_run[0].service).toBe(tf("var.gateway_service_name"));
    expect(exampleModule("edge").gateway_service_name).toBe(tf("module.gateway.service_name"));
    expect(output("modules/gateway", "service_name").value).toBe(tf("google_cloud_run_v2_service.gateway.name"));
    const rules = inFolder("modules/edge").flatMap((hcl) =>
      Object.values(hcl.resource?.google_compute_global_forwarding_rule ?? {}).flat(),
    ) as Hcl[];
    expect(rules.map((rule) => rule.port_range)).toEqual(["443"]);
  });

  it("switches the gateway's ingress to the load balancer's with it", () => {
    const ingress = resource("gateway", "google_cloud_run_v2_service", "gateway").ingress;
    expect(choose(ingress, "behind_load_balancer", false)).toBe("INGRESS_TRAFFIC_ALL");
    expect(choose(ingress, "behind_load_balancer", true)).toBe("INGRESS_TRAFFIC_INTERNAL_LOAD_BALANCER");
    expect(variable("modules/gateway", "behind_load_balancer").default).toBe(false);
    expect(exampleModule("gateway").behind_load_balancer).toBe(tf("var.enable_load_balancer"));
    expect(output("envs/example", "gateway_url").value).toBe(
      tf("var.enable_load_balancer ? module.edge[0].url : module.gateway.url"),
    );
  });
});
