import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateSecretKey, parseSecretKey, SecretKeyError, secretBox } from "./secret-box.ts";
import { generateWebhookSecret, secretContext, secretPrefix, signDelivery } from "./signing.ts";

const box = secretBox(parseSecretKey(generateSecretKey()));
const sealed = (secret: string, expires_at: string | null = null) => ({
  encrypted: box.seal(secret, secretContext("org-1", "wh_1")),
  prefix: secretPrefix(secret),
  created_at: "2026-01-01T00:00:00.000Z",
  expires_at,
});

describe("webhook secrets", () => {
  it("are Standard Webhooks secrets: whsec_ and the base64 of 32 random bytes", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it("are sealed with AES-256-GCM: opened with the same key and webhook only", () => {
    const secret = generateWebhookSecret();
    const text = box.seal(secret, "org-1/wh_1");
    expect(text).not.toContain(secret.slice(6, 20));
    expect(box.open(text, "org-1/wh_1")).toBe(secret);
    expect(() => box.open(text, "org-1/wh_2")).toThrow(SecretKeyError);
    expect(() => secretBox(parseSecretKey(generateSecretKey())).open(text, "org-1/wh_1")).toThrow(SecretKeyError);
  });

  it("refuse a key that is not 32 bytes of base64, naming the variable", () => {
    expect(() => parseSecretKey(undefined)).toThrow(/WEBHOOK_SECRET_KEY is not set/);
    expect(() => parseSecretKey(Buffer.alloc(16).toString("base64"))).toThrow(/WEBHOOK_SECRET_KEY must be 32 bytes/);
    expect(() => parseSecretKey("not base64 at all!")).toThrow(SecretKeyError);
  });
});

describe("signDelivery", () => {
  const body = JSON.stringify({ type: "budget.threshold_crossed", timestamp: "2026-01-01T00:00:00Z", data: {} });
  const now = new Date();

  it("signs so that the standardwebhooks library verifies it", () => {
    const secret = generateWebhookSecret();
    const headers = signDelivery(box, "org-1", { id: "wh_1", secrets: [sealed(secret)] }, "ev_1.wh_1", body, now);
    expect(headers["webhook-id"]).toBe("ev_1.wh_1");
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers })).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(`${body} `, { ...headers })).toThrow(WebhookVerificationError);
  });

  it("signs with every secret in effect during an overlap, and no longer with an expired one", () => {
    const [current, previous, expired] = [generateWebhookSecret(), generateWebhookSecret(), generateWebhookSecret()];
    const later = new Date(now.getTime() + 3_600_000).toISOString();
    const past = new Date(now.getTime() - 1).toISOString();
    const webhook = { id: "wh_1", secrets: [sealed(current), sealed(previous, later), sealed(expired, past)] };
    const headers = signDelivery(box, "org-1", webhook, "ev_1.wh_1", body, now);
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(headers["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/);
    expect(new Webhook(current).verify(body, { ...headers })).toBeTruthy();
    expect(new Webhook(previous).verify(body, { ...headers })).toBeTruthy();
    expect(() => new Webhook(expired).verify(body, { ...headers })).toThrow(WebhookVerificationError);
  });
});
