import { type ConnectionVendor, VENDOR_RULES } from "./vendors.ts";

/** What a run splits one vendor's rows by: the vendor's id and the declared dimension it is mapped to. */
export interface SplitBy {
  vendor_field: string;
  dimension: string;
}

/**
 * The split of a connection: its mapping of the vendor's `splitBy` id (the one both of the vendor's reports
 * are grouped by), while the dimension it names is still declared; otherwise none, and the rows are by day
 * and model alone.
 */
export function splitOf(
  vendor: ConnectionVendor,
  mappings: Readonly<Record<string, string>>,
  dimensions: readonly string[],
): SplitBy | undefined {
  const field = VENDOR_RULES[vendor].splitBy;
  const dimension = Object.hasOwn(mappings, field) ? mappings[field] : undefined;
  return dimension !== undefined && dimensions.includes(dimension) ? { vendor_field: field, dimension } : undefined;
}
