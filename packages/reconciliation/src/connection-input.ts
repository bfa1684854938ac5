import { hasControlOrBidi, UserError } from "@usage-ingestion/shared";
import { type ConnectionVendor, MAX_CREDENTIAL_LENGTH, VENDOR_RULES } from "./vendors.ts";

/** The credential, checked against the vendor's form; the message never repeats it. */
export function checkCredential(vendor: ConnectionVendor, credential: string): string {
  const text = credential.trim();
  const rules = VENDOR_RULES[vendor];
  if (text.length === 0) throw new UserError(`the ${vendor} credential is empty: give ${rules.credential}`);
  if (text.length > MAX_CREDENTIAL_LENGTH || hasControlOrBidi(text) || !rules.form.test(text)) {
    throw new UserError(`the ${vendor} credential is not ${rules.credential}`);
  }
  return text;
}

/** Each mapping names one of the vendor's grouping ids and one of the organization's declared dimensions. */
export function checkMappings(
  vendor: ConnectionVendor,
  mappings: Record<string, string>,
  dimensions: readonly string[],
): Record<string, string> {
  const { mappable } = VENDOR_RULES[vendor];
  for (const [field, dimension] of Object.entries(mappings)) {
    if (!mappable.includes(field)) {
      throw new UserError(`mappings: ${vendor} groups by ${mappable.join(", ")}, not "${field.slice(0, 64)}"`);
    }
    if (!dimensions.includes(dimension)) {
      throw new UserError(
        `mappings.${field}: "${dimension.slice(0, 128)}" is not a declared context dimension of the organization`,
      );
    }
  }
  return { ...mappings };
}
