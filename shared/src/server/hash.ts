import { hash } from "node:crypto";

/**
 * SHA-256 of UTF-8 text, as lowercase hex: key hashes, transaction-id claims, content and cell hashes.
 * The one-shot `crypto.hash` costs a third of a `createHash` object's three calls (once per request).
 */
export const sha256Hex = (text: string): string => hash("sha256", text, "hex");
