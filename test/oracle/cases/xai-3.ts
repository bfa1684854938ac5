import type { OracleCase } from "../oracle-case.ts";
import { request } from "./request.ts";

/**
 * xAI Grok Imagine per image. Page: https://docs.x.ai/docs/guides/video-generation (Imagine overview, read
 * 2026-11-26): "Image Generation ... Pricing $0.02 / image, Resolution 1K & 2K"; "Image generation uses flat
 * per-image pricing regardless of prompt length. Each generated image incurs a fixed fee." Its examples generate
 * with grok-imagine-image.
 */
export const XAI_3_CASES: OracleCase[] = [
  // 1 x $0.02 = 0.020000000
  {
    id: "xai-20-grok-imagine-image-one",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("xai", "grok-imagine-image", [{ type: "images", metrics: { generated: 1 } }]),
    expectedCostUsd: "0.020000000",
  },
  // Up to 10 images a request: 10 x $0.02 = 0.200000000
  {
    id: "xai-21-grok-imagine-image-ten",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("xai", "grok-imagine-image", [{ type: "images", metrics: { generated: 10 } }]),
    expectedCostUsd: "0.200000000",
  },
  // 2K resolution, the same flat price: 3 x $0.02 = 0.060000000
  {
    id: "xai-22-grok-imagine-image-2k-same-price",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("xai", "grok-imagine-image", [
      { type: "images", metrics: { generated: 3, width_px: 2048, height_px: 2048 } },
    ]),
    expectedCostUsd: "0.060000000",
  },
  // xAI's -latest alias: 2 x $0.02 = 0.040000000
  {
    id: "xai-23-grok-imagine-image-latest-alias",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("xai", "grok-imagine-image-latest", [{ type: "images", metrics: { generated: 2 } }]),
    expectedCostUsd: "0.040000000",
  },
];
