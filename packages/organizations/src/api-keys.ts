import { randomBytes } from "node:crypto";
import { sha256Hex } from "@usage-ingestion/shared/server";

/** Keys are recognisable by their prefix and carry 256 random bits; only their SHA-256 hash is stored. */
export const API_KEY_PREFIX = "usk_";
/** How much of a key is kept in clear to tell keys apart in listings. */
export const API_KEY_DISPLAY_LENGTH = 12;

export const generateApiKey = (): string => API_KEY_PREFIX + randomBytes(32).toString("base64url");

export const hashApiKey = (key: string): string => sha256Hex(key);

export const apiKeyDisplayPrefix = (key: string): string => key.slice(0, API_KEY_DISPLAY_LENGTH);
