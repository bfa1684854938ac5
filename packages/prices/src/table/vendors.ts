import type { MovingAlias } from "./aliases.ts";
import { loadPriceData } from "./load-price-data.ts";
import anthropic from "./providers/anthropic.json" with { type: "json" };
import bedrock from "./providers/bedrock.json" with { type: "json" };
import deepseek from "./providers/deepseek.json" with { type: "json" };
import gemini from "./providers/gemini.json" with { type: "json" };
import openai from "./providers/openai.json" with { type: "json" };
import xai from "./providers/xai.json" with { type: "json" };

/**
 * Our price table: one data file per vendor (`providers/<vendor>.json`, checked against `providers/.schema.json`
 * when loaded), imported so that the service bundles carry it. Order matters only among rows of equal rank and
 * date, as in each file.
 */
export const VENDORS = [
  loadPriceData("providers/openai.json", openai),
  loadPriceData("providers/anthropic.json", anthropic),
  loadPriceData("providers/bedrock.json", bedrock),
  loadPriceData("providers/gemini.json", gemini),
  loadPriceData("providers/xai.json", xai),
  loadPriceData("providers/deepseek.json", deepseek),
];

/** Every vendor's moving aliases, with their dated changes. */
export const MOVING_ALIASES: readonly MovingAlias[] = VENDORS.flatMap((vendor) => vendor.aliases);
