import type { JsonSchema } from "@valibot/to-json-schema";
import { auditLogPart } from "./audit-log.ts";
import { budgetPaths } from "./budgets.ts";
import { connectionsPart } from "./connections.ts";
import { dimensionsPart } from "./dimensions.ts";
import { keysPart } from "./keys.ts";
import { mePart } from "./me.ts";
import { membersPart } from "./members.ts";
import { type OpenApiPart, securitySchemes } from "./operations.ts";
import { organizationPart } from "./organization.ts";
import { pricesPart } from "./prices.ts";
import { reconciliationPart } from "./reconciliation.ts";
import { repricePart } from "./reprice.ts";
import { signInPart } from "./sign-in.ts";
import { webhooksPart } from "./webhooks.ts";

/** Every route group of the management API and sign-in: a new group is one file and one line here. */
const PARTS: OpenApiPart[] = [
  signInPart,
  mePart,
  organizationPart,
  keysPart,
  dimensionsPart,
  pricesPart,
  repricePart,
  membersPart,
  auditLogPart,
  { paths: budgetPaths },
  webhooksPart,
  connectionsPart,
  reconciliationPart,
];

type Document = {
  components: { securitySchemes: Record<string, object>; schemas: Record<string, JsonSchema> };
  paths: Record<string, Record<string, object>>;
};

/**
 * The usage API's document with the management API's groups added. Two groups naming the same schema,
 * or the same method of one path, is a mistake the document must not hide: it throws.
 */
export function withManagementApi<T extends Document>(document: T): T {
  const schemas = { ...document.components.schemas };
  const paths: Document["paths"] = { ...document.paths };
  for (const part of PARTS) {
    for (const [name, schema] of Object.entries(part.schemas ?? {})) {
      if (name in schemas) throw new Error(`two schemas named ${name} in /openapi.json`);
      schemas[name] = schema;
    }
    for (const [path, operations] of Object.entries(part.paths)) {
      for (const method of Object.keys(operations)) {
        if (paths[path]?.[method]) throw new Error(`${method} ${path} is described twice in /openapi.json`);
      }
      paths[path] = { ...paths[path], ...operations };
    }
  }
  return {
    ...document,
    components: {
      ...document.components,
      securitySchemes: { ...document.components.securitySchemes, ...securitySchemes },
      schemas,
    },
    paths,
  };
}
