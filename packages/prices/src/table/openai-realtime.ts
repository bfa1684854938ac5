import { page, type TokenPrices } from "./types.ts";

const MODELS = "https://developers.openai.com/api/docs/models";
const READ = "2026-11-26";

/**
 * Realtime voice models launched since the pinned catalog's models, each priced from its own page (read
 * 2026-11-26), USD per 1M tokens: text, audio and image tokens, each with its cached rate. The catalog lists
 * these ids as names of other entries at the same prices; these rows make each a model of its own. Before the
 * date read, the catalog's (equal) prices apply.
 */
const realtime = (
  model: string,
  text: readonly [input: string, cached: string, output: string],
  audio: readonly [input: string, cached: string, output: string],
  image: readonly [input: string, cached: string],
): TokenPrices => ({
  provider: "openai",
  models: [model],
  effectiveFrom: READ,
  source: page(`${MODELS}/${model}.md`, READ),
  rates: {
    input_mtok: text[0],
    cache_read_mtok: text[1],
    output_mtok: text[2],
    input_audio_mtok: audio[0],
    cache_audio_read_mtok: audio[1],
    output_audio_mtok: audio[2],
    input_image_mtok: image[0],
    cache_image_read_mtok: image[1],
  },
});

export const REALTIME_TOKENS: TokenPrices[] = [
  realtime("gpt-realtime-2", ["4", "0.4", "24"], ["32", "0.4", "64"], ["5", "0.5"]),
  realtime("gpt-realtime-2.1-mini", ["0.6", "0.06", "2.4"], ["10", "0.3", "20"], ["0.8", "0.08"]),
];
