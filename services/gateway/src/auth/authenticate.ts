import { type ErrorReply, internalError, type KeyScope, unauthorized } from "@usage-ingestion/shared";
import type { Logger } from "@usage-ingestion/shared/server";
import type { NextFunction, Request, Response } from "express";
import { locals, send } from "../http/send.ts";
import type { RateLimits } from "../limits/rate-limits.ts";
import type { ActiveKey, KeyStore } from "./key-store.ts";
import { knownKeyHashes } from "./known-key-hashes.ts";

/**
 * `X-Api-Key` -> SHA-256 (once per valid key, knownKeyHashes) -> the organization and the key's scope, before anything reads the body. A key
 * used outside its scope is answered as an invalid key is: 401, and nothing about the key is told.
 * A store that cannot answer is a 500: the client must retry, not conclude that its key is bad.
 * An address that has looked up too many unknown keys gets 429 for any key not already cached, so random
 * keys can neither flood the key store nor slow the good keys down (`limits.unknownKeysExhausted`).
 * `answer` sends a refusal; a route whose protocol has its own error bodies (OTLP) passes its own.
 */
export function authenticate(
  keys: KeyStore,
  logger: Logger,
  limits: RateLimits,
  scope: KeyScope = "ingest",
  answer: (res: Response, reply: ErrorReply) => void = send,
) {
  const hashes = knownKeyHashes();
  return async (req: Request, res: Response, next: NextFunction) => {
    // Node lower-cases incoming header names; the header is `X-Api-Key` as the specification writes it.
    const key = req.headers["x-api-key"];
    if (key === undefined) {
      return answer(res, unauthorized("The X-Api-Key header is required."));
    }
    const presented = Array.isArray(key) ? key[0] : key;
    const keyHash = presented ? hashes.hash(presented) : "";
    // The client's address (X-Forwarded-For parsed) matters only for keys not already known.
    const address = () => req.ip ?? "";
    let found: ActiveKey | null;
    try {
      const cached = keys.cached?.(keyHash);
      if (cached === undefined) {
        const exhausted = await limits.unknownKeysExhausted(address());
        if (exhausted) return answer(res, exhausted);
      }
      // A key the cache holds is taken as it is, without waiting a turn for the store's promise.
      found = !presented ? null : cached !== undefined ? cached : await keys.findActiveKey(keyHash);
      if (!found) await limits.unknownKey(address());
    } catch (error) {
      logger.log("ERROR", "key store unavailable", {
        request_id: locals(res).requestId,
        trace: locals(res).trace,
        error,
      });
      return answer(res, internalError("The API key could not be checked right now; retry the request."));
    }
    if (!found || found.scope !== scope) {
      return answer(res, unauthorized("The API key is invalid or missing."));
    }
    hashes.remember(presented as string, keyHash);
    locals(res).organizationId = found.organizationId;
    locals(res).dimensions = found.dimensions;
    locals(res).key = { hash: keyHash, limits: found.limits };
    locals(res).otel = found.otel;
    next();
  };
}
