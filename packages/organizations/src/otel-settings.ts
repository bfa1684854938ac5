import type { Firestore } from "@google-cloud/firestore";
import { type ChangeContext, operatorChange, recordChange } from "@usage-ingestion/audit";
import { MAX_CONTEXT_KEY_BYTES, MAX_CONTEXT_KEYS, UserError, utf8ByteLength } from "@usage-ingestion/shared";
import type { OrganizationOtelSettings } from "./organization-documents.ts";
import { organizationIn } from "./organizations.ts";

/** `feature` or `feature=ai.settings.context.feature`: the key in `context`, the attribute read. */
export function contextAttribute(entry: string): { key: string; attribute: string } {
  const at = entry.indexOf("=");
  return at < 0 ? { key: entry, attribute: entry } : { key: entry.slice(0, at), attribute: entry.slice(at + 1) };
}

/** OpenTelemetry attribute names: no spaces or commas, and short enough to be a context key's source. */
const ATTRIBUTE = /^[^\s,=]{1,255}$/;

/** An attribute name, or the caller's error naming `label` (a command-line option, a field). */
export function attributeName(value: string, label: string): string {
  if (!ATTRIBUTE.test(value)) {
    throw new UserError(`${label}: "${value}" is not an attribute name (1-255 characters, no spaces, commas or =)`);
  }
  return value;
}

/** `feature`, `team=app.team`: each entry's context key and attribute checked; keys unique, not the customer's. */
export function contextAttributes(entries: readonly string[], label: string): string[] {
  if (entries.length >= MAX_CONTEXT_KEYS) {
    throw new UserError(
      `${label}: at most ${MAX_CONTEXT_KEYS - 1} attributes (a context holds ${MAX_CONTEXT_KEYS} keys)`,
    );
  }
  const keys = new Set<string>();
  for (const entry of entries) {
    const { key, attribute } = contextAttribute(entry);
    attributeName(attribute, label);
    if (key === "" || utf8ByteLength(key) > MAX_CONTEXT_KEY_BYTES || key === "billable_customer_id") {
      throw new UserError(
        `${label}: "${key}" cannot be a context key (1-${MAX_CONTEXT_KEY_BYTES} bytes, not billable_customer_id)`,
      );
    }
    if (keys.has(key)) throw new UserError(`${label}: the context key "${key}" is named twice`);
    keys.add(key);
  }
  return [...entries];
}

/** A change to the OTLP settings: a value sets one, null gives it back to the default. */
export type OtelSettingsChanges = {
  [Name in keyof OrganizationOtelSettings]?: OrganizationOtelSettings[Name] | null;
};

/**
 * Sets or clears which span or resource attributes give the transactions made from an organization's spans
 * (POST /v1/traces) their `billable_customer_id` and their context. Kept on the organization's document,
 * read by the gateway with each key (so a change applies within the key cache time). Values are checked
 * as `contextAttributes` and `attributeName` check them. The change and its `organization.otel_updated`
 * entry are one transaction. Returns the settings as stored.
 */
export async function setOtelSettings(
  db: Firestore,
  organizationId: string,
  changes: OtelSettingsChanges,
  change: ChangeContext = operatorChange(),
): Promise<OrganizationOtelSettings> {
  return db.runTransaction(async (transaction) => {
    const { ref, organization } = await organizationIn(transaction, db, organizationId);
    const before: OrganizationOtelSettings = organization.otel ?? {};
    const otel = applyOtelChanges(before, changes);
    transaction.update(ref, { otel });
    recordChange(transaction, db, organizationId, change, {
      action: "organization.otel_updated",
      target: { type: "organization", id: organizationId },
      before: { otel: before },
      after: { otel },
    });
    return otel;
  });
}

/** The settings `changes` leave, each value checked; `before` is left as it was. */
function applyOtelChanges(before: OrganizationOtelSettings, changes: OtelSettingsChanges): OrganizationOtelSettings {
  const settings: OrganizationOtelSettings = { ...before };
  if (changes.customer_attribute !== undefined) {
    if (changes.customer_attribute === null) delete settings.customer_attribute;
    else settings.customer_attribute = attributeName(changes.customer_attribute, "customer_attribute");
  }
  if (changes.context_attributes !== undefined) {
    if (changes.context_attributes === null) delete settings.context_attributes;
    else settings.context_attributes = contextAttributes(changes.context_attributes, "context_attributes");
  }
  return settings;
}
