import type { Logger } from "@usage-ingestion/shared";
import { hashApiKey, internalErrorResponse, unauthorizedResponse } from "@usage-ingestion/shared";
import type { NextFunction, Request, Response } from "express";
import { locals, sendError } from "../http/send.ts";
import type { KeyStore } from "./key-store.ts";

/**
 * `X-Api-Key` -> SHA-256 -> the organization, before anything reads the body. A store that cannot
 * answer is a 500: the client must retry, not conclude that its key is bad.
 */
export function authenticate(keys: KeyStore, logger: Logger) {
  return async (req: Request, res: Response, next: NextFunction) => {
    // Node lower-cases incoming header names; the header is `X-Api-Key` as the specification writes it.
    const key = req.headers["x-api-key"];
    if (key === undefined) {
      return sendError(res, 401, unauthorizedResponse("The X-Api-Key header is required."));
    }
    const presented = Array.isArray(key) ? key[0] : key;
    let organizationId: string | null;
    try {
      organizationId = presented ? await keys.findActiveOrganization(hashApiKey(presented)) : null;
    } catch (error) {
      logger.log("ERROR", "key store unavailable", {
        request_id: locals(res).requestId,
        trace: locals(res).trace,
        error,
      });
      return sendError(
        res,
        500,
        internalErrorResponse("The API key could not be checked right now; retry the request."),
      );
    }
    if (!organizationId) {
      return sendError(res, 401, unauthorizedResponse("The API key is invalid or missing."));
    }
    locals(res).organizationId = organizationId;
    next();
  };
}
