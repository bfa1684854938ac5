import type { Firestore } from "@google-cloud/firestore";
import { type ChangeContext, operatorChange } from "@usage-ingestion/audit";
import { getOrganization } from "@usage-ingestion/organizations";
import { DOCUMENT_PATHS, toFieldErrors, UserError } from "@usage-ingestion/shared";
import * as v from "valibot";
import {
  CUSTOM_PRICE_KEYS,
  type CustomPrice,
  type CustomPricingDocument,
  CustomPricingFileSchema,
  unknownPriceKey,
} from "./custom-pricing.ts";
import { recordPriceChanges } from "./price-ids.ts";

/** Parses JSON text, or says where it is not JSON. */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UserError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * Validates a list of prices. A misspelt key is named with the known ones ("unknown price key `input_mtk`;
 * known: input_mtok, ..."), before any other problem; `label` says which price in a list. A single price's
 * misspelling is the message alone.
 */
function validPrices(prices: unknown[], label: (index: number) => string, what: string, single = false): CustomPrice[] {
  return validList(CustomPricingFileSchema, CUSTOM_PRICE_KEYS, prices, label, what, single);
}

/** validPrices for any list of prices: its schema (`{ prices: [...] }`) and the keys a price may have. */
export function validList<T>(
  schema: v.GenericSchema<unknown, { prices: T[] }>,
  known: readonly string[],
  prices: unknown[],
  label: (index: number) => string,
  what: string,
  single = false,
): T[] {
  const misspelt = prices.flatMap((price, index) => {
    const problem = unknownPriceKey(price, known);
    return problem ? [{ line: `${label(index)}.${problem.path}: ${problem.message}`, message: problem.message }] : [];
  });
  if (single && misspelt.length === 1) throw new UserError(misspelt[0]?.message as string);
  if (misspelt.length) {
    throw new UserError(`${what} is invalid:\n${misspelt.map(({ line }) => `  ${line}`).join("\n")}`);
  }
  const parsed = v.safeParse(schema, { prices }, { abortEarly: false, abortPipeEarly: true });
  if (!parsed.success) {
    const problems = toFieldErrors(parsed.issues).map((error) => `  ${error.field || "file"}: ${error.message}`);
    throw new UserError(`${what} is invalid:\n${problems.join("\n")}`);
  }
  return parsed.output.prices;
}

/** The file is not `{ "prices": [...] }`: the schema says how. */
function fileShapeError(json: unknown): never {
  const parsed = v.safeParse(CustomPricingFileSchema, json, { abortEarly: false, abortPipeEarly: true });
  const problems = parsed.success
    ? []
    : toFieldErrors(parsed.issues).map((e) => `  ${e.field || "file"}: ${e.message}`);
  throw new UserError(`the pricing file is invalid:\n${problems.join("\n")}`);
}

export const keyOf = (price: Pick<CustomPrice, "provider" | "model" | "model_tier" | "effective_from">) =>
  [price.provider, price.model, price.model_tier ?? "", price.effective_from ?? ""].join("\u0000");

/** Names one price entry for messages. */
export const describePrice = (
  price: Pick<CustomPrice, "provider" | "model" | "model_tier" | "effective_from">,
): string =>
  `${price.provider}/${price.model}${price.model_tier ? ` tier ${price.model_tier}` : ""}${
    price.effective_from ? ` effective ${price.effective_from}` : " (always in effect)"
  }`;

/**
 * Replaces the organization's list, with one audit entry per price added, replaced or removed, all in one
 * transaction: the list and its entries are written together or not at all.
 */
async function storePrices(
  db: Firestore,
  organizationId: string,
  prices: CustomPrice[],
  now: Date,
  change: ChangeContext,
  updating: (current: CustomPrice[]) => CustomPrice[] = () => prices,
) {
  const ref = db.doc(DOCUMENT_PATHS.customPricing(organizationId));
  return db.runTransaction(async (transaction) => {
    const snap = await transaction.get(ref);
    const current = (snap.data() as CustomPricingDocument | undefined)?.prices ?? [];
    const next = updating(current);
    const doc: CustomPricingDocument = { prices: next, updated_at: now.toISOString() };
    transaction.set(ref, doc);
    recordPriceChanges(transaction, db, organizationId, change, current, next, now);
    return doc;
  });
}

/** Validates a pricing file's text and replaces the organization's custom prices with it. */
export async function setCustomPricing(
  db: Firestore,
  organizationId: string,
  fileText: string,
  now = new Date(),
  change: ChangeContext = operatorChange(),
) {
  await getOrganization(db, organizationId);
  const json = parseJson(fileText, "the pricing file");
  const listed = (json as { prices?: unknown } | null)?.prices;
  const prices = Array.isArray(listed)
    ? validPrices(listed, (index) => `prices.${index}`, "the pricing file")
    : fileShapeError(json);
  return storePrices(db, organizationId, prices, now, change);
}

/**
 * Adds prices (one object, or an array of them) to the organization's list; an entry for the same
 * provider, model, tier and effective_from is replaced. Returns what was added and what was replaced.
 */
export async function addCustomPrices(
  db: Firestore,
  organizationId: string,
  text: string,
  now = new Date(),
  change: ChangeContext = operatorChange(),
) {
  await getOrganization(db, organizationId);
  const json = parseJson(text, "the price");
  const list = Array.isArray(json) ? json : [json];
  const added = validPrices(list, (index) => `${index}`, "the prices", !Array.isArray(json));
  const replacing = new Set(added.map(keyOf));
  let replaced: CustomPrice[] = [];
  await storePrices(db, organizationId, [], now, change, (current) => {
    replaced = current.filter((price) => replacing.has(keyOf(price)));
    return [...current.filter((price) => !replacing.has(keyOf(price))), ...added];
  });
  return { added, replaced };
}

/** Removes the one entry for this provider, model, tier (none: none) and effective_from (none: none). */
export async function removeCustomPrice(
  db: Firestore,
  organizationId: string,
  which: Pick<CustomPrice, "provider" | "model" | "model_tier" | "effective_from">,
  now = new Date(),
  change: ChangeContext = operatorChange(),
) {
  await getOrganization(db, organizationId);
  const current = (await getCustomPricing(db, organizationId)).prices;
  const wanted = keyOf({ ...which, effective_from: normalisedTime(which.effective_from) });
  const left = current.filter(
    (price) => keyOf({ ...price, effective_from: normalisedTime(price.effective_from) }) !== wanted,
  );
  if (left.length === current.length) {
    const same = current.filter((price) => price.provider === which.provider && price.model === which.model);
    throw new UserError(
      `no custom price ${describePrice(which)} for ${organizationId}${
        same.length ? `; its prices for ${which.provider}/${which.model}: ${same.map(describePrice).join("; ")}` : ""
      }`,
    );
  }
  await storePrices(db, organizationId, left, now, change, (stored) =>
    stored.filter((price) => keyOf({ ...price, effective_from: normalisedTime(price.effective_from) }) !== wanted),
  );
  return { removed: current.length - left.length, left: left.length };
}

export const normalisedTime = (time: string | undefined) => {
  if (time === undefined) return undefined;
  const parsed = new Date(time);
  return Number.isNaN(parsed.getTime()) ? time : parsed.toISOString();
};

export async function getCustomPricing(db: Firestore, organizationId: string) {
  await getOrganization(db, organizationId);
  const snap = await db.doc(DOCUMENT_PATHS.customPricing(organizationId)).get();
  return (snap.data() as CustomPricingDocument | undefined) ?? { prices: [], updated_at: null };
}
