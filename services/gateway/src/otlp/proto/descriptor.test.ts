import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseProtoFiles } from "./definitions.ts";

describe("descriptor.json", () => {
  it("is what the vendored .proto files define (else: npx tsx services/gateway/src/otlp/proto/write-descriptor.ts)", () => {
    const written = JSON.parse(readFileSync(new URL("descriptor.json", import.meta.url), "utf8"));
    expect(written).toEqual(parseProtoFiles());
  });
});
