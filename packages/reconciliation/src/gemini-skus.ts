import type { PriceComponent, TokenKind } from "./vendor-figures.ts";

/**
 * What a Cloud Billing SKU of the Gemini API or of Vertex AI bills, where its description names it. The
 * descriptions follow two grammars (Google Cloud SKU groups "Gemini 2.x" and "Gen AI v2",
 * cloud.google.com/skus/sku-groups/vertex-api-gemini-2-x-skus and cloud.google.com/skus/sku-groups/gen-ai-v2,
 * read 2026-11-29):
 * - the Gemini API's: "Generate content input token count gemini 2.5 flash short input text",
 *   "Generate content cached input token count gemini 2.5 flash input image",
 *   "Generate content output token count gemini 3.1 flash lite preview text",
 *   "GenerateContent text output token count for Gemini 2.0 Flash";
 * - Vertex AI's: "Gemini 2.5 Flash GA Text Input - Predictions", "Gemini 2.5 Flash GA Thinking Text Output -
 *   Predictions", "Gemini 2.5 Flash GA Input Text Caching", "Gemini 3 Flash Text Input Caching Storage".
 * A SKU that bills no tokens (cache storage by the hour, grounding requests, embeddings) is not mapped.
 */
export interface GeminiSku {
  /** The model as clients name it: `gemini-2.5-flash-lite`, `gemini-3.1-flash-lite-preview`. */
  model: string;
  kind: TokenKind;
  component: PriceComponent;
}

/** The words that name a model after "gemini <version>"; the modality, tier and "GA" words end it. */
const MODEL_WORDS = new Set(["pro", "flash", "lite", "image", "live", "preview", "nano"]);

function geminiModel(description: string): string | null {
  const words = description.toLowerCase().split(/[\s_]+/);
  const at = words.findIndex((word, index) => word === "gemini" && /^\d+(?:\.\d+)?$/.test(words[index + 1] ?? ""));
  if (at < 0) return null;
  const name = ["gemini", words[at + 1] as string];
  for (const word of words.slice(at + 2)) {
    if (!MODEL_WORDS.has(word)) break;
    name.push(word);
  }
  return name.length > 2 ? name.join("-") : null;
}

function tokenKind(description: string): Pick<GeminiSku, "kind" | "component"> | null {
  const text = description.toLowerCase();
  if (/storage|hours?\b|grounding|embed|tuning|request count/.test(text)) return null;
  if (!/token|predictions|caching/.test(text)) return null;
  if (/cached|caching/.test(text)) return { kind: "cached_tokens", component: "cache_read" };
  if (/output/.test(text)) return { kind: "output_tokens", component: "output" };
  if (/input/.test(text)) return { kind: "input_tokens", component: "input" };
  return null;
}

/** The model and token kind a SKU bills, or null when its description names no model or no token kind. */
export function geminiSku(description: string): GeminiSku | null {
  const model = geminiModel(description);
  const kind = tokenKind(description);
  return model && kind ? { model, ...kind } : null;
}
