import { rateLimited } from "@usage-ingestion/shared";
import type { NextFunction, Request, Response } from "express";
import { locals, send } from "../http/send.ts";

export interface ReportsAtOnce {
  perInstance: number;
  perKey: number;
}

/**
 * At most `perInstance` reports run at once on this instance and `perKey` for one key; beyond, 429 with
 * Retry-After, so a burst of heavy reports queues at the client instead of in this process's memory. A
 * report's place is given back when its answer is finished or its client goes away.
 */
export function reportsAtOnce(limits: ReportsAtOnce) {
  let running = 0;
  const byKey = new Map<string, number>();
  return (_req: Request, res: Response, next: NextFunction) => {
    const key = locals(res).key?.hash ?? "";
    const mine = byKey.get(key) ?? 0;
    if (running >= limits.perInstance || mine >= limits.perKey) {
      const which = mine >= limits.perKey ? `${limits.perKey} for one key` : `${limits.perInstance} on this instance`;
      return send(res, rateLimited(`Too many reports at once (at most ${which}); retry shortly.`, 1, {}));
    }
    running++;
    byKey.set(key, mine + 1);
    res.once("close", () => {
      running--;
      const left = (byKey.get(key) ?? 1) - 1;
      if (left > 0) byKey.set(key, left);
      else byKey.delete(key);
    });
    next();
  };
}
