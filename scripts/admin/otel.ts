import type { Firestore } from "@google-cloud/firestore";
import { contextAttribute } from "@usage-ingestion/gateway";
import {
  getOrganization,
  type OrganizationOtelSettings,
  OTEL_DEFAULT_CUSTOMER_ATTRIBUTES,
} from "@usage-ingestion/organizations";
import {
  DOCUMENT_PATHS,
  MAX_CONTEXT_KEY_BYTES,
  MAX_CONTEXT_KEYS,
  UserError,
  utf8ByteLength,
} from "@usage-ingestion/shared";

type Out = (line: string) => void;

const USAGE =
  "usage: npm run admin -- org otel set <org-id> [--customer-attribute NAME|default] " +
  "[--context-attributes NAME,KEY=NAME,...|none] | org otel show <org-id>";

/** OpenTelemetry attribute names: no spaces or commas, and short enough to be a context key's source. */
const ATTRIBUTE = /^[^\s,=]{1,255}$/;

function attributeName(value: string, option: string): string {
  if (!ATTRIBUTE.test(value)) {
    throw new UserError(`${option}: "${value}" is not an attribute name (1-255 characters, no spaces, commas or =)`);
  }
  return value;
}

/** `feature,team=app.team`: each entry's context key and attribute checked; keys unique, not the customer's. */
function contextAttributes(list: string): string[] {
  const entries = list.split(",").filter((entry) => entry !== "");
  if (entries.length >= MAX_CONTEXT_KEYS) {
    throw new UserError(
      `--context-attributes: at most ${MAX_CONTEXT_KEYS - 1} attributes (a context holds ${MAX_CONTEXT_KEYS} keys)`,
    );
  }
  const keys = new Set<string>();
  for (const entry of entries) {
    const { key, attribute } = contextAttribute(entry);
    attributeName(attribute, "--context-attributes");
    if (key === "" || utf8ByteLength(key) > MAX_CONTEXT_KEY_BYTES || key === "billable_customer_id") {
      throw new UserError(
        `--context-attributes: "${key}" cannot be a context key (1-${MAX_CONTEXT_KEY_BYTES} bytes, not billable_customer_id)`,
      );
    }
    if (keys.has(key)) throw new UserError(`--context-attributes: the context key "${key}" is named twice`);
    keys.add(key);
  }
  return entries;
}

function parseChanges(options: string[]): Partial<Record<keyof OrganizationOtelSettings, string | string[] | null>> {
  const changes: Partial<Record<keyof OrganizationOtelSettings, string | string[] | null>> = {};
  for (let i = 0; i < options.length; i += 2) {
    const [option, value] = [options[i], options[i + 1]];
    if (value === undefined) throw new UserError(USAGE);
    if (option === "--customer-attribute") {
      changes.customer_attribute = value === "default" ? null : attributeName(value, option);
    } else if (option === "--context-attributes") {
      changes.context_attributes = value === "none" ? null : contextAttributes(value);
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
export async function runOtelCommand(rest: string[], db: Firestore, out: Out): Promise<void> {
  const [verb, organizationId, ...options] = rest;
  if (!organizationId || (verb !== "set" && verb !== "show")) throw new UserError(USAGE);
  let settings: OrganizationOtelSettings = { ...(await getOrganization(db, organizationId)).otel };
  if (verb === "set") {
    for (const [name, value] of Object.entries(parseChanges(options))) {
      const key = name as keyof OrganizationOtelSettings;
      if (value === null) delete settings[key];
      else (settings as Record<string, unknown>)[key] = value;
    }
    await db.doc(DOCUMENT_PATHS.organization(organizationId)).update({ otel: settings });
    settings = (await getOrganization(db, organizationId)).otel ?? {};
  }
  const customer = settings.customer_attribute;
  out(
    `customer_attribute\t${customer ?? OTEL_DEFAULT_CUSTOMER_ATTRIBUTES.join(", ")}\t${customer ? "own" : "default"}`,
  );
  const context = settings.context_attributes;
  out(`context_attributes\t${context?.length ? context.join(",") : "-"}\t${context ? "own" : "default"}`);
}
