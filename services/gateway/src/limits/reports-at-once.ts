import { rateLimited } from "@usage-ingestion/shared";
import type { NextFunction, Request, Response } from "express";
import { locals, send } from "../http/send.ts";

export interface ReportsAtOnce {
  perInstance: number;
  /** Below `perInstance`, so that one organization never holds every slot (checked at start-up). */
  perOrganization: number;
  perKey: number;
}

/** The slots one scope (the instance, an organization, a key) holds: when each was taken, oldest first. */
type Held = number[];

/**
 * At most `perInstance` reports run at once on this instance, `perOrganization` for one organization and
 * `perKey` for one key (a signed-in person counts as a key); beyond, 429, so a burst of heavy reports
 * queues at the client instead of in this process's memory, and one organization, however many keys it
 * has, leaves `perInstance - perOrganization` slots to the others. A report's place is given back when its
 * answer is finished or its client goes away, and a report ends at its time limit (`timeoutMs`) at the
 * latest: `Retry-After` is the time until the oldest report of the full scope reaches it, so a refusal
 * never asks for a wait longer than that limit, and a client that waits that long finds a slot.
 */
export function reportsAtOnce(limits: ReportsAtOnce, timeoutMs: number, now: () => number = Date.now) {
  const instance: Held = [];
  const byOrganization = new Map<string, Held>();
  const byKey = new Map<string, Held>();
  const heldIn = (map: Map<string, Held>, id: string) => {
    const found = map.get(id);
    if (found) return found;
    const held: Held = [];
    map.set(id, held);
    return held;
  };
  const give = (map: Map<string, Held> | undefined, id: string, held: Held, takenAt: number) => {
    held.splice(held.indexOf(takenAt), 1);
    if (map && held.length === 0) map.delete(id);
  };
  return (_req: Request, res: Response, next: NextFunction) => {
    const { key, organizationId = "" } = locals(res);
    const keyId = key?.hash ?? "";
    const organization = heldIn(byOrganization, organizationId);
    const mine = heldIn(byKey, keyId);
    const full =
      mine.length >= limits.perKey
        ? { held: mine, which: `${limits.perKey} for one key` }
        : organization.length >= limits.perOrganization
          ? { held: organization, which: `${limits.perOrganization} for one organization` }
          : instance.length >= limits.perInstance
            ? { held: instance, which: `${limits.perInstance} on this instance` }
            : undefined;
    if (full) {
      if (organization.length === 0) byOrganization.delete(organizationId);
      if (mine.length === 0) byKey.delete(keyId);
      const oldest = full.held[0] ?? now();
      const seconds = Math.max(1, Math.ceil((oldest + timeoutMs - now()) / 1000));
      return send(res, rateLimited(`Too many reports at once (at most ${full.which}); retry shortly.`, seconds, {}));
    }
    const takenAt = now();
    instance.push(takenAt);
    organization.push(takenAt);
    mine.push(takenAt);
    res.once("close", () => {
      give(undefined, "", instance, takenAt);
      give(byOrganization, organizationId, organization, takenAt);
      give(byKey, keyId, mine, takenAt);
    });
    next();
  };
}
