import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Webhook signing secrets are stored encrypted with AES-256-GCM under WEBHOOK_SECRET_KEY (32 bytes,
 * base64; Secret Manager in Google Cloud). The webhook's path is the additional authenticated data, so a
 * ciphertext copied onto another webhook does not decrypt. Stored as `v1.<iv>.<ciphertext>.<tag>`.
 */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

const VERSION = "v1";
const KEY_BYTES = 32;
const IV_BYTES = 12;

export class SecretKeyError extends Error {
  override name = "SecretKeyError";
}

/** The key from its base64 text: exactly 32 bytes, or a clear error naming the variable. */
export function parseSecretKey(text: string | undefined, variable = "WEBHOOK_SECRET_KEY"): Buffer {
  if (!text) throw new SecretKeyError(`${variable} is not set: 32 random bytes in base64 (openssl rand -base64 32)`);
  const key = Buffer.from(text, "base64");
  if (key.length !== KEY_BYTES || key.toString("base64") !== text.trim()) {
    throw new SecretKeyError(`${variable} must be 32 bytes in base64 (openssl rand -base64 32)`);
  }
  return key;
}

export const generateSecretKey = () => randomBytes(KEY_BYTES).toString("base64");

export function secretBox(key: Buffer): SecretBox {
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(context, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return [VERSION, iv, ciphertext, cipher.getAuthTag()]
        .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
        .join(".");
    },
    open(sealed, context) {
      const [version, iv, ciphertext, tag] = sealed.split(".");
      if (version !== VERSION || !iv || !ciphertext || !tag) throw new SecretKeyError("not a sealed webhook secret");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(context, "utf8"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      try {
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString(
          "utf8",
        );
      } catch {
        throw new SecretKeyError("the webhook secret does not decrypt with WEBHOOK_SECRET_KEY (another key?)");
      }
    },
  };
}
