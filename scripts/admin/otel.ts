import type { Firestore } from "@google-cloud/firestore";
import type { ChangeContext } from "@usage-ingestion/audit";
import {
  attributeName,
  contextAttributes,
  getOrganization,
  type OrganizationOtelSettings,
  OTEL_DEFAULT_CUSTOMER_ATTRIBUTES,
  type OtelSettingsChanges,
  setOtelSettings,
} from "@usage-ingestion/organizations";
import { UserError } from "@usage-ingestion/shared";

type Out = (line: string) => void;

const USAGE =
  "usage: npm run admin -- org otel set <org-id> [--customer-attribute NAME|default] " +
  "[--context-attributes NAME,KEY=NAME,...|none] | org otel show <org-id>";

function parseChanges(options: string[]): OtelSettingsChanges {
  const changes: OtelSettingsChanges = {};
  for (let i = 0; i < options.length; i += 2) {
    const [option, value] = [options[i], options[i + 1]];
    if (value === undefined) throw new UserError(USAGE);
    if (option === "--customer-attribute") {
      changes.customer_attribute = value === "default" ? null : attributeName(value, option);
    } else if (option === "--context-attributes") {
      changes.context_attributes =
        value === "none"
          ? null
          : contextAttributes(
              value.split(",").filter((entry) => entry !== ""),
              option,
            );
    } else {
      throw new UserError(USAGE);
    }
  }
  if (Object.keys(changes).length === 0) throw new UserError(USAGE);
  return changes;
}

/**
 * `org otel set|show`: which span or resource attributes give the transactions made from an organization's
 * spans (POST /v1/traces) their `billable_customer_id` and their context. Kept on the organization's
 * document, read by the gateway with each key (so a change applies within the key cache time).
 */
export async function runOtelCommand(rest: string[], db: Firestore, out: Out, change: ChangeContext): Promise<void> {
  const [verb, organizationId, ...options] = rest;
  if (!organizationId || (verb !== "set" && verb !== "show")) throw new UserError(USAGE);
  const stored: OrganizationOtelSettings = (await getOrganization(db, organizationId)).otel ?? {};
  const settings = verb === "set" ? await setOtelSettings(db, organizationId, parseChanges(options), change) : stored;
  const customer = settings.customer_attribute;
  out(
    `customer_attribute\t${customer ?? OTEL_DEFAULT_CUSTOMER_ATTRIBUTES.join(", ")}\t${customer ? "own" : "default"}`,
  );
  const context = settings.context_attributes;
  out(`context_attributes\t${context?.length ? context.join(",") : "-"}\t${context ? "own" : "default"}`);
}
