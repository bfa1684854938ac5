import type { PriceComponent, TokenKind } from "./vendor-figures.ts";

/**
 * What a Bedrock line of Cost Explorer bills, from its service and usage type. AWS names them
 * (docs.aws.amazon.com/bedrock/latest/userguide/cost-mgmt-understanding-cur-data.html, read 2026-11-29):
 * `{region}-{model}-{token type}[-{tier}]`, with `-cross-region-global` for cross-region inference, e.g.
 * `USE1-Claude4.6Sonnet-input-tokens`, `USE1-Claude4.6Sonnet-cache-read-input-token-count`,
 * `USE1-Nova2.0Lite-input-tokens-flex`, `USE1-gpt-oss-120b-output-tokens-priority`,
 * `USE1-Claude4.6Sonnet-output-tokens-cross-region-global`, and the `mantle` ones
 * `USE1-openai.gpt-oss-120b-mantle-input-tokens-standard`. Models sold through AWS Marketplace are billed
 * under a service of their own, "Claude 3 Haiku (Amazon Bedrock Edition)", with usage types such as
 * `USW2-MP:USW2_InputTokenCount-Units`: there the service names the model.
 */
export interface BedrockUsage {
  /** The model under the name our records' model ids reduce to (model-key.ts): `claude-sonnet-4-6`. */
  model: string;
  kind: TokenKind;
  component: PriceComponent;
}

export const BEDROCK_SERVICE = "Amazon Bedrock";
export const MARKETPLACE_EDITION = /^(.+?)\s*\(Amazon Bedrock Edition\)$/;

const TOKEN_TYPE =
  /^(.+?)-(?:mantle-)?(input-tokens|output-tokens|cache-read-input-token-count|cache-write-input-token-count)(?:-[a-z-]+)?$/i;
const KINDS: Record<string, Pick<BedrockUsage, "kind" | "component">> = {
  "input-tokens": { kind: "input_tokens", component: "input" },
  "output-tokens": { kind: "output_tokens", component: "output" },
  "cache-read-input-token-count": { kind: "cached_tokens", component: "cache_read" },
  "cache-write-input-token-count": { kind: "cache_creation_input_tokens", component: "cache_write" },
};
const CLAUDE_FAMILIES = new Set(["sonnet", "haiku", "opus", "instant"]);

/**
 * A billing name as our model ids reduce to it. Claude's put the family after the version from Claude 4 on
 * (`Claude4.6Sonnet` is `claude-sonnet-4-6`, `Claude3.5Sonnet` is `claude-3-5-sonnet`); other names are
 * split into their words and numbers (`Nova2.0Lite` is `nova-2-lite`, `gpt-oss-120b` stays).
 */
export function bedrockModelName(billingName: string): string {
  const name = billingName.replace(/^[a-z0-9]+\./, "");
  const words = name
    .replace(/([a-z])(\d)/gi, "$1 $2")
    .replace(/(\d)([A-Z])/g, "$1 $2")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase().replace(/^(\d+)\.0$/, "$1"));
  if (words[0] === "claude") {
    const family = words.find((word) => CLAUDE_FAMILIES.has(word));
    const version = words.find((word) => /^\d+(?:\.\d+)?$/.test(word));
    if (family && version) {
      const dashed = version.replace(".", "-");
      return Number.parseFloat(version) >= 4 ? `claude-${family}-${dashed}` : `claude-${dashed}-${family}`;
    }
  }
  return words.join("-").replace(/\./g, "-");
}

function marketplaceKind(usageType: string): Pick<BedrockUsage, "kind" | "component"> | null {
  const text = usageType.toLowerCase().replace(/[^a-z]/g, "");
  if (text.includes("cacheread")) return KINDS["cache-read-input-token-count"] ?? null;
  if (text.includes("cachewrite")) return KINDS["cache-write-input-token-count"] ?? null;
  if (!text.includes("token")) return null;
  if (text.includes("input")) return KINDS["input-tokens"] ?? null;
  if (text.includes("output")) return KINDS["output-tokens"] ?? null;
  return null;
}

/** The model and token kind of a line, or null when its service and usage type name no model's tokens. */
export function bedrockUsage(service: string, usageType: string): BedrockUsage | null {
  const edition = MARKETPLACE_EDITION.exec(service);
  if (edition) {
    const kind = marketplaceKind(usageType);
    return kind ? { model: bedrockModelName(edition[1] as string), ...kind } : null;
  }
  if (service !== BEDROCK_SERVICE) return null;
  const withoutRegion = /^[A-Z]{2,5}\d*-(.+)$/.exec(usageType)?.[1];
  const match = withoutRegion ? TOKEN_TYPE.exec(withoutRegion) : null;
  if (!match) return null;
  const kind = KINDS[(match[2] as string).toLowerCase()];
  return kind ? { model: bedrockModelName(match[1] as string), ...kind } : null;
}
