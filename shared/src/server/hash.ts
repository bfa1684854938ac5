import { createHash } from "node:crypto";

/** SHA-256 of UTF-8 text, as lowercase hex: key hashes, transaction-id claims, content and cell hashes. */
export const sha256Hex = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");
