import type { ActiveKey, KeyScope, KeyStore } from "@usage-ingestion/organizations";
import { knownKeyHashes } from "@usage-ingestion/organizations";
import { type ErrorReply, internalError, unauthorized } from "@usage-ingestion/shared";
import type { Logger } from "@usage-ingestion/shared/server";
import type { NextFunction, Request, Response } from "express";
import { locals, send } from "../http/send.ts";
import type { RateLimits } from "../limits/rate-limits.ts";

/**
 * `X-Api-Key` -> SHA-256 (once per valid key, knownKeyHashes) -> the organization and the key's scope, before anything reads the body. A key
 * used outside its scope is answered as an invalid key is: 401, and nothing about the key is told.
 * A store that cannot answer is a 500: the client must retry, not conclude that its key is bad.
 * An address that has looked up too many unknown keys gets 429 for any key neither cached nor known (found
 * valid here before, `knownKeyHashes`), so random keys can neither flood the key store nor slow the good
 * keys down (`limits.unknownKeysExhausted`), and a valid key is never refused for what others sent from its
 * address (a shared NAT): its look-up is one per cache time at most, like any cached key's.
 * `answer` sends a refusal; a route whose protocol has its own error bodies (OTLP) passes its own.
 */
export function authenticate(
  keys: KeyStore,
  logger: Logger,
  limits: RateLimits,
  scope: KeyScope | readonly KeyScope[] = "ingest",
  answer: (res: Response, reply: ErrorReply) => void = send,
  seen?: (keyHash: string) => void,
) {
  const hashes = knownKeyHashes();
  // The report routes take read and admin keys (an admin key acts as the role admin, which reads costs).
  const scopes: readonly KeyScope[] = typeof scope === "string" ? [scope] : scope;
  const admit = (found: ActiveKey | null, presented: string, keyHash: string, res: Response, next: NextFunction) => {
    if (!found || !scopes.includes(found.scope)) {
      return answer(res, unauthorized("The API key is invalid or missing."));
    }
    hashes.remember(presented, keyHash);
    const context = locals(res);
    context.organizationId = found.organizationId;
    context.dimensions = found.dimensions;
    context.key = { hash: keyHash, limits: found.limits };
    context.otel = found.otel;
    context.keyId = found.keyId;
    // A map look-up: `last_used_at` is written later, off the request's path (keyLastUsed).
    seen?.(keyHash);
    next();
  };
  const unavailable = (res: Response, error: unknown) => {
    logger.log("ERROR", "key store unavailable", {
      request_id: locals(res).requestId,
      trace: locals(res).trace,
      error,
    });
    answer(res, internalError("The API key could not be checked right now; retry the request."));
  };
  /** A key the cache does not hold as active: the unknown keys' limit, then the store. */
  const lookUp = async (
    cached: ActiveKey | null | undefined,
    presented: string,
    keyHash: string,
    req: Request,
    res: Response,
    next: NextFunction,
  ) => {
    // The client's address (X-Forwarded-For parsed) matters only for keys not already known.
    const address = () => req.ip ?? "";
    let found: ActiveKey | null;
    try {
      if (cached === undefined && !hashes.known(presented)) {
        const exhausted = await limits.unknownKeysExhausted(address());
        if (exhausted) return answer(res, exhausted);
      }
      found = !presented ? null : cached !== undefined ? cached : await keys.findActiveKey(keyHash);
      if (!found) {
        hashes.forget(presented);
        await limits.unknownKey(address());
      }
    } catch (error) {
      return unavailable(res, error);
    }
    admit(found, presented, keyHash, res, next);
  };
  return (req: Request, res: Response, next: NextFunction) => {
    // Node lower-cases incoming header names; the header is `X-Api-Key` as the specification writes it.
    const key = req.headers["x-api-key"];
    if (key === undefined) {
      return answer(res, unauthorized("The X-Api-Key header is required."));
    }
    const presented = (Array.isArray(key) ? key[0] : key) ?? "";
    const keyHash = presented ? hashes.hash(presented) : "";
    let cached: ActiveKey | null | undefined;
    try {
      cached = keys.cached?.(keyHash);
    } catch (error) {
      return unavailable(res, error);
    }
    // An active key the cache holds is taken as it is, without a promise or a turn.
    if (presented && cached) return admit(cached, presented, keyHash, res, next);
    return lookUp(cached, presented, keyHash, req, res, next);
  };
}
