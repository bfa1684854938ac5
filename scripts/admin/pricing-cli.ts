import { existsSync, readFileSync } from "node:fs";
import type { Firestore } from "@google-cloud/firestore";
import {
  addCustomPrices,
  addPlatformPrices,
  describePrice,
  explainRates,
  getCustomPricing,
  getPlatformPricing,
  removeCustomPrice,
  removePlatformPrice,
  setCustomPricing,
} from "@usage-ingestion/prices";
import type { RecordsFeed } from "@usage-ingestion/records";
import { repriceUnpriced } from "@usage-ingestion/records";
import { PROVIDERS, type Provider, UserError } from "@usage-ingestion/shared";

type Out = (line: string) => void;

/** `--name value` options out of the arguments; what is left are the positional ones. */
export function options(args: string[], names: string[], flags: string[] = []) {
  const values: Record<string, string> = {};
  const positional: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (flags.includes(arg)) values[arg] = "true";
    else if (names.includes(arg)) {
      const value = args[++index];
      if (value === undefined || value.startsWith("--")) throw new UserError(`${arg} needs a value`);
      values[arg] = value;
    } else if (arg.startsWith("--")) throw new UserError(`unknown option ${arg}`);
    else positional.push(arg);
  }
  return { values, positional };
}

function readText(pathOrJson: string): string {
  if (/^\s*[[{]/.test(pathOrJson)) return pathOrJson;
  if (!existsSync(pathOrJson)) throw new UserError(`cannot read ${pathOrJson}: no such file, and not inline JSON`);
  try {
    return readFileSync(pathOrJson, "utf8");
  } catch {
    throw new UserError(`cannot read ${pathOrJson}`);
  }
}

function timeOption(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime()))
    throw new UserError(`${name} must be an ISO 8601 time, like 2025-11-01T12:00:00Z`);
  return parsed.toISOString();
}

function vendor(value: string | undefined): Exclude<Provider, "custom"> {
  const known = PROVIDERS.filter((provider) => provider !== "custom");
  if (!known.includes(value as Exclude<Provider, "custom">)) {
    throw new UserError(`provider must be one of: ${known.join(", ")} (custom models have only custom prices)`);
  }
  return value as Exclude<Provider, "custom">;
}

/** `pricing set|list|add|remove|explain|catalog ...`. */
export async function runPricingCommand(action: string, args: string[], db: Firestore, out: Out): Promise<void> {
  const need = (count: number, positional: string[], usage: string) => {
    if (positional.length < count) throw new UserError(`usage: npm run admin -- pricing ${usage}`);
  };
  switch (action) {
    case "set": {
      need(2, args, "set <org-id> <file.json>");
      const doc = await setCustomPricing(db, args[0] as string, readText(args[1] as string));
      return out(`set ${doc.prices.length} custom price(s) for ${args[0]}`);
    }
    case "list": {
      need(1, args, "list <org-id>");
      return out(JSON.stringify(await getCustomPricing(db, args[0] as string), null, 2));
    }
    case "add": {
      need(2, args, "add <org-id> <file.json | inline JSON>");
      const { added, replaced } = await addCustomPrices(db, args[0] as string, readText(args[1] as string));
      for (const price of replaced) out(`replaced ${describePrice(price)}`);
      for (const price of added) out(`added ${describePrice(price)}`);
      return;
    }
    case "remove": {
      const { values, positional } = options(args, ["--tier", "--effective-from"]);
      need(3, positional, "remove <org-id> <provider> <model> [--tier TIER] [--effective-from TIME]");
      const [org, provider, model] = positional as [string, string, string];
      const which = {
        provider: provider as Provider,
        model,
        ...(values["--tier"] ? { model_tier: values["--tier"] } : {}),
        ...(values["--effective-from"]
          ? { effective_from: timeOption(values["--effective-from"], "--effective-from") }
          : {}),
      };
      const { left } = await removeCustomPrice(db, org, which);
      return out(`removed ${describePrice(which)}; ${left} custom price(s) left for ${org}`);
    }
    case "explain":
      return explain(args, db, out, "explain");
    case "catalog":
      return runCatalogCommand(args[0] ?? "", args.slice(1), db, out);
    default:
      throw new UserError(`unknown command "pricing ${action}"`);
  }
}

/** The rates that would apply to a vendor's model, the platform list's first (as the worker reads them). */
async function explain(args: string[], db: Firestore, out: Out, command: string) {
  const { values, positional } = options(args, ["--at", "--tier"]);
  if (positional.length < 2) {
    throw new UserError(`usage: npm run admin -- pricing ${command} <provider> <model> [--at TIME] [--tier TIER]`);
  }
  const at = new Date(timeOption(values["--at"], "--at") ?? Date.now());
  const stored = await getPlatformPricing(db);
  const platform = stored.updated_at ? { prices: stored.prices, updatedAt: stored.updated_at } : null;
  const explained = explainRates(vendor(positional[0]), positional[1] as string, at, values["--tier"], platform);
  if (!explained.ok) throw new UserError(`unpriced: ${explained.reason}`);
  for (const line of explained.lines) out(line);
}

/** `pricing catalog add|list|remove|explain`: the platform-wide price list. */
async function runCatalogCommand(action: string, args: string[], db: Firestore, out: Out): Promise<void> {
  switch (action) {
    case "add": {
      if (args.length < 1) throw new UserError("usage: npm run admin -- pricing catalog add <file.json | inline JSON>");
      const { added, replaced } = await addPlatformPrices(db, readText(args[0] as string));
      for (const price of replaced) out(`replaced ${describePrice(price)}`);
      for (const price of added) out(`added ${describePrice(price)} from ${price.source_url}`);
      return;
    }
    case "list":
      return out(JSON.stringify(await getPlatformPricing(db), null, 2));
    case "remove": {
      const { values, positional } = options(args, ["--tier", "--effective-from"]);
      const usage = "pricing catalog remove <provider> <model> --effective-from TIME [--tier TIER]";
      const effectiveFrom = timeOption(values["--effective-from"], "--effective-from");
      if (positional.length < 2 || !effectiveFrom) throw new UserError(`usage: npm run admin -- ${usage}`);
      const which = {
        provider: vendor(positional[0]),
        model: positional[1] as string,
        ...(values["--tier"] ? { model_tier: values["--tier"] } : {}),
        effective_from: effectiveFrom,
      };
      const { left } = await removePlatformPrice(db, which);
      return out(`removed ${describePrice(which)}; ${left} platform price(s) left`);
    }
    case "explain":
      return explain(args, db, out, "catalog explain");
    default:
      throw new UserError(`unknown command "pricing catalog ${action}"; known: add, list, remove, explain`);
  }
}

const records = (count: number) => `${count} record${count === 1 ? "" : "s"}`;

/**
 * `reprice <org-id> [--dry-run]`: one line per record, named by its message id, with its amount or why it
 * stays unpriced; then one line of counts. (The reason text is the worker's.)
 */
export async function runReprice(args: string[], db: Firestore, out: Out, feed: () => RecordsFeed): Promise<void> {
  const { values, positional } = options(args, [], ["--dry-run"]);
  if (positional.length < 1) throw new UserError("usage: npm run admin -- reprice <org-id> [--dry-run]");
  const dryRun = values["--dry-run"] === "true";
  const organizationId = positional[0] as string;
  const result = await repriceUnpriced(db, organizationId, { dryRun, ...(dryRun ? {} : { feed: feed() }) });
  const repriced = dryRun ? "would be re-priced" : "re-priced";
  for (const item of result.priced) {
    out(`message ${item.message_id}: ${repriced}, ${item.model} ${item.cost_usd} USD`);
  }
  for (const left of result.stillUnpriced) out(`message ${left.message_id}: still unpriced (${left.reason})`);
  // Records another reprice (or the worker's redelivery) priced between the read and this one's write.
  const meanwhile = result.examined - result.priced.length - result.stillUnpriced.length;
  out(
    `${records(result.priced.length)} ${repriced}, ${result.stillUnpriced.length} still unpriced${
      meanwhile > 0 ? `, ${meanwhile} priced meanwhile by another run` : ""
    }${dryRun ? " (dry run: nothing written)" : ""}`,
  );
  if (result.unpublished.length > 0) {
    // Re-priced in Firestore (and in the reports), not yet in BigQuery: publishing again fills the gap.
    const times = result.unpublished.map((item) => item.received_at).sort();
    const to = new Date(Date.parse(times.at(-1) as string) + 1).toISOString();
    throw new UserError(
      `${records(result.unpublished.length)} re-priced but not published to the records topic (${
        result.unpublished[0]?.error
      }); publish them with: npm run admin -- records publish ${organizationId} --from ${times[0]} --to ${to}`,
    );
  }
}
