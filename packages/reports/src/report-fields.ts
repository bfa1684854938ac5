/** The fields a report groups and filters by: the roll-up cell's own, plus `context.<declared dimension>`. */
export const FIXED_FIELDS = ["day", "provider", "model", "model_tier", "billable_customer_id"] as const;
export type FixedField = (typeof FIXED_FIELDS)[number];
export type ReportField = FixedField | `context.${string}`;

export const CONTEXT_PREFIX = "context.";

export const isFixedField = (name: string): name is FixedField => (FIXED_FIELDS as readonly string[]).includes(name);

/** The context dimension a field names, or null for a fixed field. */
export const dimensionOf = (field: string): string | null =>
  field.startsWith(CONTEXT_PREFIX) ? field.slice(CONTEXT_PREFIX.length) : null;

/** Short names the command line accepts for `--by`. */
export const FIELD_ALIASES: Record<string, ReportField> = {
  customer: "billable_customer_id",
  tier: "model_tier",
};
