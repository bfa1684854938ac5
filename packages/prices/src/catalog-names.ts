import type { MatchLogic } from "@pydantic/genai-prices";
import type { Provider } from "@usage-ingestion/shared";
import { onlySuffixes } from "./resolve-model.ts";

/**
 * What may come before a Bedrock name in an id: a region or the global profile prefix, then the model
 * vendor's namespace (`anthropic.`, `amazon.`, `meta.`), as in `us.anthropic.claude-3-5-haiku-20241022-v1:0`.
 */
const BEDROCK_PREFIX = /^((us|eu|apac|au|ca|jp|us-gov|global|regional)\.)?([a-z0-9-]+\.)?$/;

/**
 * Whether the catalog's match rule (with the entry's own id) names `id` as the entry's own model: an exact
 * name or full-id pattern of the catalog, or one of its names followed only by the vendor's own suffixes (a dated snapshot, a
 * documented alias). The catalog also matches by prefix (`claude-sonnet-5` matches `claude-sonnet-5-5`);
 * such a match is another model, never this one.
 */
export function catalogNames(provider: Exclude<Provider, "custom">, rule: MatchLogic, id: string): boolean {
  if ("or" in rule) return rule.or.some((inner) => catalogNames(provider, inner, id));
  if ("and" in rule) return rule.and.every((inner) => catalogNames(provider, inner, id));
  if ("equals" in rule) return id === rule.equals;
  // A pattern for whole ids (`^gpt-5\.5-\d{4}-\d{2}-\d{2}$`), or a filter beside another rule (`^(?!.*-tts)`);
  // an open-ended one (`^gemini-3\.5-flash-\d`) also matches other models' ids.
  if ("regex" in rule)
    return (rule.regex.endsWith("$") || rule.regex.startsWith("^(?!")) && new RegExp(rule.regex).test(id);
  const before = (at: number) => (provider === "bedrock" ? BEDROCK_PREFIX.test(id.slice(0, at)) : at === 0);
  if ("ends_with" in rule) return id.endsWith(rule.ends_with) && before(id.length - rule.ends_with.length);
  const name = "starts_with" in rule ? rule.starts_with : rule.contains;
  const at = "starts_with" in rule ? (id.startsWith(name) ? 0 : -1) : id.indexOf(name);
  if (at === -1 || !before(at)) return false;
  const tail = id.slice(at + name.length);
  return onlySuffixes(provider, tail) || (id.startsWith("ft:") && FINE_TUNED_TAIL.test(tail));
}

/**
 * An OpenAI fine-tuned model's id: `ft:` + its base model's snapshot + `:org:name:id`
 * (`ft:gpt-4o-2024-08-06:acme::a1b2`); the catalog names the base (`ft:gpt-4o-2024-`), the rest is the
 * snapshot's date and the fine-tune's own names.
 */
const FINE_TUNED_TAIL = /^[\d-]*(:[^:]*)*$/;
