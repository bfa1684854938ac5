import { findProvider, type MatchLogic } from "@pydantic/genai-prices";
import { describe, expect, it } from "vitest";
import { CATALOG_PROVIDER_IDS } from "./catalog.ts";
import { UNKNOWN_MODEL, type VendorProvider, vendorTokenRates } from "./read-vendor-rates.ts";
import { TOKEN_PRICES, UNIT_PRICES } from "./table/index.ts";
import { MOVING_ALIASES } from "./table/vendors.ts";

const AT = new Date("2026-11-24T12:00:00Z");
const PROVIDERS = Object.keys(CATALOG_PROVIDER_IDS) as VendorProvider[];

/** The names the catalog gives a model (its spellings, such as `claude-opus-5.5`): each is a model of its own. */
function exactNames(rule: MatchLogic): string[] {
  if ("or" in rule) return rule.or.flatMap(exactNames);
  if ("equals" in rule) return [rule.equals];
  if ("starts_with" in rule) return [rule.starts_with];
  if ("contains" in rule) return [rule.contains];
  if ("ends_with" in rule) return [rule.ends_with];
  return [];
}

/** Every model id our table and the catalog hold for the provider, and every exact name. */
function idsOf(provider: VendorProvider): { ids: string[]; exact: Set<string> } {
  const models = findProvider({ providerId: CATALOG_PROVIDER_IDS[provider] })?.models ?? [];
  const table = [
    ...TOKEN_PRICES.filter((entry) => entry.provider === provider).flatMap((entry) => entry.models),
    ...UNIT_PRICES.filter((price) => price.provider === provider).map((price) => price.model),
  ].filter((id) => !id.endsWith("*"));
  // The catalog's `regional.` prefix names Bedrock's in-Region price, not an id anyone sends: the id is the rest.
  // The catalog's fine-tune entries (`ft:gpt-4o`) name no id anyone sends: see the fine-tuned ids below.
  const ids = [
    ...new Set([
      ...models.map((model) => model.id.toLowerCase().replace(/^regional\./, "")).filter((id) => !id.startsWith("ft:")),
      ...table,
    ]),
  ];
  // A moving alias is priced as the model it named at the time (price-aliases.test.ts), never as itself.
  const aliases = new Set(MOVING_ALIASES.filter((alias) => alias.provider === provider).map((alias) => alias.alias));
  return {
    ids: ids.filter((id) => !aliases.has(id)),
    exact: new Set([...ids, ...models.flatMap((model) => exactNames(model.match))]),
  };
}

/** The forms each vendor (and its platforms) writes for the same model. */
const FORMS: Record<VendorProvider, Array<(id: string) => string>> = {
  openai: [(id) => id.toUpperCase(), (id) => `${id}-2026-11-01`],
  anthropic: [(id) => `${id}-20261101`, (id) => `${id}@20261101`, (id) => `${id}-latest`, (id) => `${id}[1m]`],
  gemini: [(id) => `models/${id}`, (id) => `${id}-001`, (id) => id.toUpperCase()],
  xai: [(id) => `${id}-latest`, (id) => `${id}-1101`, (id) => `${id}-reasoning`, (id) => `${id}-non-reasoning`],
  bedrock: [
    (id) => `us.${id}`,
    (id) => `eu.${id}`,
    (id) => `arn:aws:bedrock:us-east-1::foundation-model/${id}`,
    (id) => `arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.${id}`,
  ],
  deepseek: [(id) => id.toUpperCase(), (id) => `models/${id}`],
};

/** What an id prices as: its model, or the reason it has no price. */
function outcome(provider: VendorProvider, id: string): string {
  const result = vendorTokenRates(provider, id, AT);
  // A Bedrock id without a region prefix is an in-Region id, priced as the catalog's regional profile.
  return result.ok
    ? `model ${result.value.modelId.replace(/^regional\./, "")}`
    : result.reason.replace(/"[^"]*"/, "<id>");
}

describe("a model id is priced only as the model the vendor names with it", () => {
  it.each(PROVIDERS)(
    "every %s id in our table and the catalog, in every vendor form, resolves to itself",
    (provider) => {
      const { ids, exact } = idsOf(provider);
      expect(ids.length).toBeGreaterThan(0);
      const wrong: string[] = [];
      let checked = 0;
      for (const id of ids) {
        const own = outcome(provider, id);
        if (own.startsWith(UNKNOWN_MODEL)) {
          wrong.push(`${id}: ${own}`); // every id in our table and the catalog is known as itself
          continue;
        }
        for (const form of FORMS[provider]) {
          const variant = form(id);
          if (exact.has(variant.toLowerCase())) continue; // the vendor's name for a model of its own
          checked++;
          const got = outcome(provider, variant);
          if (got !== own) wrong.push(`${variant}: ${got} (not ${own})`);
        }
      }
      expect(wrong).toEqual([]);
      expect(checked).toBeGreaterThan(0);
    },
  );

  /** What a vendor appends to name a newer or different model. */
  const LONGER = ["-5", ".5", "-1", "-2", "-pro", "-mini", "-nano", "-lite", "-max", "-ultra", "-fast", "-turbo", "-x"];
  /** Bedrock ids end in a date and version: a newer model's name comes before them. */
  const extend = (provider: VendorProvider, id: string, more: string) => {
    if (provider !== "bedrock") return `${id}${more}`;
    const tail = /(-\d{8})?(-v\d+(:\d+)?)?$/.exec(id)?.[0] ?? "";
    return `${id.slice(0, id.length - tail.length)}${more}${tail}`;
  };

  it.each(PROVIDERS)("a longer, newer %s id never resolves to a shorter, older one", (provider) => {
    const { ids, exact } = idsOf(provider);
    const wrong: string[] = [];
    let checked = 0;
    for (const id of ids) {
      if (outcome(provider, id).startsWith(UNKNOWN_MODEL)) continue;
      for (const more of LONGER) {
        const longer = extend(provider, id, more);
        // The vendor's name for a model of its own (for Bedrock, before the date and version).
        if (exact.has(longer) || exact.has(extend(provider, id, more).replace(/(-\d{8})?(-v\d+(:\d+)?)?$/, "")))
          continue;
        checked++;
        const got = outcome(provider, longer);
        if (!got.startsWith(`${UNKNOWN_MODEL}:`)) wrong.push(`${longer}: ${got}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it.each<[string, string]>([
    ["ft:gpt-4o-2024-08-06:acme::a1b2c3", "ft:gpt-4o"],
    ["ft:gpt-4o-mini-2024-07-18:acme:support:a1b2c3", "ft:gpt-4o-mini"],
    ["ft:gpt-3.5-turbo-0125:acme::a1b2c3", "ft:gpt-3.5-turbo-"],
  ])("the fine-tuned id %s is priced as %s", (id, model) => {
    expect(outcome("openai", id)).toBe(`model ${model}`);
  });

  it.each<[string, string]>([
    ["claude-sonnet-5-5", "claude-sonnet-5-5"],
    ["claude-sonnet-5-5-20260928", "claude-sonnet-5-5"],
    ["claude-sonnet-5-5@20260928", "claude-sonnet-5-5"],
    ["claude-haiku-5-5", "claude-haiku-5-5"],
    ["claude-haiku-5-5[1m]", "claude-haiku-5-5"],
    ["claude-mythos-5", "claude-mythos-5"],
    ["claude-mythos-5-1", "claude-mythos-5-1"],
    ["claude-fable-5-2", "claude-fable-5-2"],
    ["claude-fable-5-2-latest", "claude-fable-5-2"],
  ])("the anthropic id %s is priced as %s, its own entry", (id, model) => {
    expect(outcome("anthropic", id)).toBe(`model ${model}`);
  });

  it.each<[VendorProvider, string]>([
    ["anthropic", "claude-sonnet-5-7"],
    ["anthropic", "claude-mythos-5-2"],
    ["anthropic", "claude-haiku-5-5-1"],
    ["anthropic", "claude-sonnet-4-5-5"],
    ["openai", "gpt-4o-mini-pro"],
    ["openai", "gpt-5.5-pro-max"],
    ["gemini", "gemini-2.5-pro-ultra"],
    ["gemini", "gemini-3-flash-lite"],
    ["xai", "grok-4.20-mini"],
    ["bedrock", "anthropic.claude-sonnet-5-5-v1:0"],
    // Claude 5.5 and Fable 5.2 on Bedrock: no AWS page we read prices them, and they are not their cousins.
    ["bedrock", "global.anthropic.claude-haiku-5-5"],
    ["bedrock", "us.anthropic.claude-fable-5-2-v1:0"],
    ["bedrock", "arn:aws:bedrock:us-east-1:123456789012:inference-profile/eu.anthropic.claude-mythos-5-1-v1:0"],
    ["bedrock", "us.anthropic.claude-sonnet-4-5-5-20260101-v1:0"],
    ["deepseek", "deepseek-v4-flash-max"],
  ])("%s %s is unpriced as unknown_model, not priced as a cousin", (provider, id) => {
    expect(outcome(provider, id)).toMatch(/^unknown_model: /);
  });
});
