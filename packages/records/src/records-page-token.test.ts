import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  DEVELOPMENT_PAGE_TOKEN_KEY,
  MAX_PAGE_TOKEN_LENGTH,
  PageTokenKeyError,
  pageTokens,
  type RecordsPosition,
} from "./records-page-token.ts";

const tokens = pageTokens(DEVELOPMENT_PAGE_TOKEN_KEY);
const binding = { organizationId: "acme", filters: "f1" };
const position: RecordsPosition = {
  readTime: { seconds: 1_780_000_000, nanoseconds: 123_456_000 },
  from: new Date("2026-06-01T00:00:00.000Z"),
  to: new Date("2026-06-02T00:00:00.000Z"),
  after: { receivedAt: "2026-06-01T12:00:00.000Z", messageId: "17290431520471234" },
};

describe("records page tokens", () => {
  it("read back the position they were signed with", () => {
    const token = tokens.sign(binding, position);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(tokens.read(binding, token)).toEqual(position);
  });

  it("are refused for another organization or other filters, which they do not name", () => {
    const token = tokens.sign(binding, position);
    expect(tokens.read({ ...binding, organizationId: "globex" }, token)).toBeNull();
    expect(tokens.read({ ...binding, filters: "f2" }, token)).toBeNull();
    expect(Buffer.from(token.split(".")[0] as string, "base64url").toString()).not.toContain("acme");
  });

  it("are refused when signed with another key", () => {
    const other = pageTokens("another key of at least thirty-two bytes");
    expect(tokens.read(binding, other.sign(binding, position))).toBeNull();
  });

  it("are refused when any part was changed", () => {
    const token = tokens.sign(binding, position);
    const [payload, signature] = token.split(".") as [string, string];
    const forged = tokens.sign(binding, { ...position, after: { ...position.after, messageId: "0" } });
    expect(tokens.read(binding, `${forged.split(".")[0]}.${signature}`)).toBeNull();
    expect(tokens.read(binding, `${payload}.${forged.split(".")[1]}`)).toBeNull();
    for (let i = 0; i < payload.length; i += 7) {
      const changed = `${payload.slice(0, i)}${payload[i] === "A" ? "B" : "A"}${payload.slice(i + 1)}`;
      expect(tokens.read(binding, `${changed}.${signature}`)).toBeNull();
    }
  });

  it("are refused when malformed, without throwing", () => {
    for (const text of [
      "",
      ".",
      "abc",
      "a.b.c",
      "!!!.???",
      `${"a".repeat(10)}.${"b".repeat(42)}`,
      `${"a".repeat(MAX_PAGE_TOKEN_LENGTH)}.${"b".repeat(43)}`,
    ]) {
      expect(tokens.read(binding, text)).toBeNull();
    }
  });

  it("are refused when a payload that verifies has the wrong shape", () => {
    // Only the key can sign one; its fields are checked all the same. A good one, signed by hand, passes:
    const good = tokens.sign(binding, position).split(".")[0] as string;
    expect(tokens.read(binding, withSignature(good))).toEqual(position);
    const shapes: unknown[] = [
      null,
      [],
      [2, 1, 0, 0, 1, "2026-06-01T12:00:00.000Z", "m"],
      [1, -1, 0, 0, 1, "2026-06-01T12:00:00.000Z", "m"],
      [1, 1, 1_000_000_000, 0, 1, "2026-06-01T12:00:00.000Z", "m"],
      [1, 1, 0, 0, 1, "not a time", "m"],
      [1, 1, 0, 0, 1, "2026-06-01T12:00:00.000Z", ""],
      [1, 1, 0, 0, 1, "2026-06-01T12:00:00.000Z", 7],
    ];
    for (const shape of shapes) {
      const payload = Buffer.from(JSON.stringify(shape)).toString("base64url");
      expect(tokens.read(binding, withSignature(payload))).toBeNull();
    }
  });

  it("need a key of at least 32 bytes, and never show it", () => {
    expect(() => pageTokens("short key")).toThrow(PageTokenKeyError);
    expect(() => pageTokens("short key")).not.toThrow(/short key/);
    expect(() => pageTokens("x".repeat(32))).not.toThrow();
  });
});

/** A payload signed as the service signs: the HMAC over the same binding, with the development key. */
function withSignature(payload: string): string {
  const mac = createHmac("sha256", DEVELOPMENT_PAGE_TOKEN_KEY)
    .update(JSON.stringify(["usage-records-page-token", binding.organizationId, binding.filters, payload]))
    .digest("base64url");
  return `${payload}.${mac}`;
}
