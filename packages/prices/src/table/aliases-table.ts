import type { MovingAlias } from "./aliases.ts";
import { page } from "./types.ts";

const GEMINI_MODELS = page("https://ai.google.dev/gemini-api/docs/models", "2026-11-29");
/** OpenAI's model list: "ChatGPT-4o points to the GPT-4o snapshot currently used in ChatGPT". */
const OPENAI_MODELS = page("https://cdn.openai.com/API/docs/txt/llms-models-pricing.txt", "2026-11-29");
/**
 * xAI's models page as archived on 2024-12-17 (archive.fo/MgzHf): "The grok-2 and grok-2-latest model names are
 * aliased to the latest chat models, currently grok-2-1212."
 */
const XAI_MODELS_2024_12 = page("https://docs.x.ai/docs/models", "archive.fo/MgzHf copy of 2024-12-17");

export const MOVING_ALIASES: readonly MovingAlias[] = [
  // Google moves its family aliases to each new release (gemini-pro-latest to Gemini 3.1 Pro, reportedly on
  // 2026-03-06); no Google page we read dates a move, so they stay unresolved rather than priced as Gemini 1.0.
  ...["gemini-pro-latest", "gemini-flash-latest", "gemini-flash-lite-latest"].map(
    (alias): MovingAlias => ({ provider: "gemini", alias, source: GEMINI_MODELS, changes: [] }),
  ),
  { provider: "openai", alias: "chatgpt-4o-latest", source: OPENAI_MODELS, changes: [] },
  {
    provider: "xai",
    alias: "grok-2-latest",
    source: XAI_MODELS_2024_12,
    changes: [{ from: "2024-12-17T00:00:00Z", model: "grok-2-1212", source: XAI_MODELS_2024_12 }],
  },
];
