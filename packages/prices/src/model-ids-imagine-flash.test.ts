import { describe, expect, it } from "vitest";
import { UNKNOWN_MODEL, type VendorProvider, vendorTokenRates } from "./read-vendor-rates.ts";

const AT = new Date("2026-11-26T12:00:00Z");

/** What an id prices as: its model, or the reason it has no price. */
function outcome(provider: VendorProvider, id: string): string {
  const result = vendorTokenRates(provider, id, AT);
  return result.ok ? `model ${result.value.modelId}` : result.reason;
}

describe("the DeepSeek Flash and Grok Imagine ids are priced only as themselves", () => {
  it.each<[VendorProvider, string]>([
    ["deepseek", "deepseek-flash"],
    ["deepseek", "DeepSeek-Flash"],
    ["deepseek", "deepseek-v4-flash-vision-exp"],
    ["deepseek", "deepseek-v4-pro"],
    ["xai", "grok-imagine-image"],
    ["xai", "grok-imagine-image-latest"],
  ])("%s %s is a model of its own", (provider, id) => {
    expect(outcome(provider, id)).toMatch(/^model /);
  });

  it.each<[VendorProvider, string]>([
    // OpenRouter's name for DeepSeek-V4.1-Flash; DeepSeek's API knows only deepseek-flash.
    ["deepseek", "deepseek-v4.1-flash"],
    ["deepseek", "deepseek-flash-1017"],
    ["deepseek", "deepseek-v4-pro-0813"],
    // Other Imagine models: no page we read prices the image ones; video is priced by resolution, which
    // video_seconds does not carry.
    ["xai", "grok-imagine-image-quality"],
    ["xai", "grok-imagine-image-2.0"],
    ["xai", "grok-imagine-video"],
  ])("%s %s is unknown_model, not priced as a cousin", (provider, id) => {
    expect(outcome(provider, id)).toMatch(new RegExp(`^${UNKNOWN_MODEL}: `));
  });
});
