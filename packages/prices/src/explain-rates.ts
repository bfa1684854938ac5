import { formatDecimal, type Provider } from "@usage-ingestion/shared";
import { CATALOG_VERSION } from "./catalog.ts";
import type { PlatformPricing } from "./choose-rate-card.ts";
import { platformPriceFor } from "./find-platform-price.ts";
import {
  FLAT_PRICE_COMPONENT_KEYS,
  PRICE_COMPONENT_KEYS,
  PRICE_COMPONENTS,
  type PriceComponentInfo,
} from "./price-components.ts";
import { isTiered, type Rate, type TieredRate } from "./rate-types.ts";
import { vendorTokenRates } from "./read-vendor-rates.ts";
import { unitPricesInEffect } from "./table/units.ts";

export type Explanation = { ok: true; lines: string[] } | { ok: false; reason: string };

const perText = (per: number, unit: string) =>
  per === 1 ? `per ${unit}` : `per ${per.toLocaleString("en-US")} ${unit}s`;
const rateText = (rate: Rate) => `$${formatDecimal(rate.price)} ${perText(rate.per, rate.unit)}`;

function rateLines(component: string, rate: Rate | TieredRate): string[] {
  if (!isTiered(rate)) return [`  ${component.padEnd(22)} ${rateText(rate).padEnd(36)} ${rate.source}`];
  return [
    `  ${component.padEnd(22)} ${rateText(rate.base).padEnd(36)} ${rate.base.source}`,
    ...rate.tiers.map(
      (tier) =>
        `  ${"".padEnd(22)} ${`above ${tier.start} prompt tokens, the whole call: ${rateText(tier.rate)}`} ${tier.rate.source}`,
    ),
  ];
}

/**
 * The rates that would price a transaction of this model received at `at` with this tier, and where each
 * came from: the platform list's entry when one matches (it wins over the published rates), else the
 * published rates (our table over the catalog). What `admin pricing explain` prints; an organization's
 * own prices are not consulted.
 */
export function explainRates(
  provider: Exclude<Provider, "custom">,
  model: string,
  at: Date,
  tier?: string,
  platform: PlatformPricing | null = null,
): Explanation {
  const listed = platform
    ? platformPriceFor(platform.prices, { provider, model, ...(tier ? { model_tier: tier } : {}) }, at)
    : undefined;
  if (listed) {
    const lines = [
      `${provider} model "${model}" priced by the platform list as "${listed.model}", received at ${at.toISOString()}, tier ${tier ?? "standard"}`,
      `platform price effective ${listed.effective_from}, from ${listed.source_url} (list updated ${platform?.updatedAt}); it is the only source: a component it lacks leaves the call unpriced`,
    ];
    for (const key of FLAT_PRICE_COMPONENT_KEYS) {
      const usd = listed[key];
      if (usd !== undefined)
        lines.push(`  ${key.padEnd(22)} $${usd} ${perText(PRICE_COMPONENTS[key].per, PRICE_COMPONENTS[key].unit)}`);
    }
    for (const [type, usd] of Object.entries(listed.per_request ?? {})) {
      if (usd !== undefined) lines.push(`  ${`request:${type}`.padEnd(22)} $${usd} per request`);
    }
    return { ok: true, lines };
  }
  const vendor = vendorTokenRates(provider, model, at, tier);
  if (!vendor.ok) return vendor;
  const { modelId, names, tokens, catalogRequests, unknownAbove, unknownRates } = vendor.value;
  const lines = [
    `${provider} model "${model}" priced as "${modelId}", received at ${at.toISOString()}, tier ${tier ?? "standard"}`,
    `${platform ? "no platform price; " : ""}catalog ${CATALOG_VERSION}; our price table where it names a source page`,
    "tokens (a component without its own rate is billed at the one it falls back to):",
  ];
  for (const key of PRICE_COMPONENT_KEYS) {
    const rate = tokens[key];
    if (rate) lines.push(...rateLines(key, rate));
    else if (PRICE_COMPONENTS[key].usage === "tokens") {
      const info: PriceComponentInfo = PRICE_COMPONENTS[key];
      lines.push(
        `  ${key.padEnd(22)} ${info.fallback ? `as ${info.fallback}` : "no rate: such tokens leave the call unpriced"}`,
      );
    }
  }
  for (const unknown of unknownRates ?? []) {
    const when = unknown.above === undefined ? "" : ` above ${unknown.above} prompt tokens`;
    lines.push(`  ${unknown.component.padEnd(22)} unpriced${when}, because ${unknown.reason}`);
  }
  if (unknownAbove) {
    lines.push(`  above ${unknownAbove.above} prompt tokens: unpriced, because ${unknownAbove.reason}`);
  }
  const units = unitPricesInEffect(provider, names, at);
  const requests = Object.entries(catalogRequests);
  if (units.length || requests.length) lines.push("per unit:");
  for (const unit of units) {
    const what = [
      unit.kind,
      unit.quality ? `quality ${unit.quality}` : "",
      unit.maxSide ? `sides ${unit.minSide ?? 1}-${unit.maxSide} px` : "",
    ]
      .filter(Boolean)
      .join(", ");
    lines.push(
      `  ${what.padEnd(40)} $${unit.usd} per ${unit.per ?? 1}  ${unit.source} (effective ${unit.effectiveFrom})`,
    );
  }
  for (const [type, rate] of requests)
    lines.push(`  ${`request:${type}`.padEnd(40)} ${rateText(rate)}  ${rate.source}`);
  return { ok: true, lines };
}
