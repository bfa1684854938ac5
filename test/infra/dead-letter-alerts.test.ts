import { beforeAll, describe, expect, it } from "vitest";
import { type Hcl, infraQuery, parseInfra, tf } from "./hcl.ts";

// Every dead-letter hold subscription in the modules is alerted on in the example environment: a message
// in one is a transaction not priced, a webhook delivery Pub/Sub gave up on, or a record row missing from
// BigQuery, and nobody looks at a subscription unprompted.
let files = new Map<string, Hcl>();
const query = () => infraQuery(files);

beforeAll(async () => {
  files = await parseInfra();
});

/** Each `google_pubsub_subscription` whose name says it holds dead letters, as `module/resource`. */
function deadLetterHolds(): string[] {
  const holds: string[] = [];
  for (const [path, hcl] of files) {
    const module = /^modules\/([^/]+)\//.exec(path)?.[1];
    for (const name of Object.keys(hcl.resource?.google_pubsub_subscription ?? {})) {
      if (module && name.includes("dead_letter")) holds.push(`${module}/${name}`);
    }
  }
  return holds.sort();
}

/** `module.M.O` in the example environment -> the `module/resource` its output names. */
function holdOf(expression: string): string | undefined {
  const [, module, output] = /^\$\{module\.([^.]+)\.([^.}]+)\}$/.exec(expression) ?? [];
  if (!module || !output) return undefined;
  const source = String(query().exampleModule(module).source).replace("../../modules/", "");
  const value = String(query().output(`modules/${source}`, output).value);
  const resource = /^\$\{google_pubsub_subscription\.([^.]+)\.name\}$/.exec(value)?.[1];
  return resource && `${source}/${resource}`;
}

describe("dead-letter alerts (Terraform)", () => {
  it("alert on every dead-letter hold subscription when it holds a message", () => {
    const monitoring = query().exampleModule("monitoring");
    const alerted = [
      holdOf(monitoring.dead_letter_subscription_name),
      ...Object.values(monitoring.dead_letter_holds as Record<string, { subscription: string }>).map((hold) =>
        holdOf(hold.subscription),
      ),
    ].sort();
    expect(deadLetterHolds()).toHaveLength(3);
    expect(alerted).toEqual(deadLetterHolds());
    const policy = query().resource("monitoring", "google_monitoring_alert_policy", "dead_letter_holds");
    expect(policy.for_each).toBe(tf("local.dead_letter_holds"));
    // The transactions' own hold, then the others the environment gives.
    const holds = String(query().local("modules/monitoring", "dead_letter_holds"));
    expect(holds).toMatch(/subscription\s*=\s*var\.dead_letter_subscription_name/);
    expect(holds).toMatch(/}, var\.dead_letter_holds\)}$/);
    const condition = policy.conditions[0].condition_threshold[0];
    expect(condition.filter).toContain(`resource.labels.subscription_id = "${tf("each.value.subscription")}"`);
    expect(condition.filter).toContain("pubsub.googleapis.com/subscription/num_undelivered_messages");
    expect(condition).toMatchObject({ comparison: "COMPARISON_GT", threshold_value: 0 });
    expect(policy.documentation[0].content).toBe(tf("each.value.action"));
  });
});
