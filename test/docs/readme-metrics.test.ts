import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  AudioSecondsMetricsSchema,
  CustomMetricsSchema,
  ImagesMetricsSchema,
  RequestsMetricsSchema,
  TokensMetricsSchema,
  USAGE_TYPES,
  VideoSecondsMetricsSchema,
} from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/lib/services.ts";

const METRICS = {
  tokens: TokensMetricsSchema,
  images: ImagesMetricsSchema,
  audio_seconds: AudioSecondsMetricsSchema,
  video_seconds: VideoSecondsMetricsSchema,
  requests: RequestsMetricsSchema,
  custom: CustomMetricsSchema,
} as const;

describe("API reference", () => {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const api = readFileSync(join(REPO_ROOT, "docs", "api.md"), "utf8");
  const row = (type: string) => api.split("\n").find((line) => line.startsWith(`| \`${type}\``)) ?? "";

  it("has a row for every usage type naming each of its metrics, required ones first", () => {
    for (const type of USAGE_TYPES) {
      const [, required = "", optional = ""] = row(type).split("|").slice(1);
      expect(required, `row for ${type}`).not.toBe("");
      for (const [name, schema] of Object.entries(METRICS[type].entries)) {
        const isOptional = schema.type === "optional";
        const column = isOptional && type !== "audio_seconds" ? optional : required;
        expect(column, `${type}.${name}`).toContain(`\`${name}\``);
      }
    }
  });

  it("points to the committed OpenAPI document, not to a file outside the repository", () => {
    expect(readme).toContain("docs/openapi.json");
    expect(readme).not.toMatch(/contract is the specification/i);
    expect(api).toContain("openapi.json");
    expect(api).not.toMatch(/contract is the specification/i);
  });
});
