import { randomBytes } from "node:crypto";
import { sha256Hex } from "@usage-ingestion/shared/server";

/** Keys are recognisable by their prefix and carry 256 random bits; only their SHA-256 hash is stored. */
export const API_KEY_PREFIX = "usk_";
/** How much of a key is kept in clear to tell keys apart in listings. */
export const API_KEY_DISPLAY_LENGTH = 12;

export const generateApiKey = (): string => API_KEY_PREFIX + randomBytes(32).toString("base64url");

export const hashApiKey = (key: string): string => sha256Hex(key);

export const apiKeyDisplayPrefix = (key: string): string => key.slice(0, API_KEY_DISPLAY_LENGTH);

/**
 * A key's public id: `key_` and the first 16 hex digits of its hash. Nothing about the key can be learned from
 * it (it is a part of a SHA-256), every key has one (older keys too, with no migration), and the key store
 * finds a key by it as a range of document ids.
 */
export const apiKeyId = (keyHash: string): string => `key_${keyHash.slice(0, 16)}`;
export const API_KEY_ID = /^key_[0-9a-f]{16}$/;
export const MAX_KEY_NAME_LENGTH = 100;
