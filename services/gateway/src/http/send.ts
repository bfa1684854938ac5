import type { OrganizationAccess, OrganizationLimits, OrganizationOtelSettings } from "@usage-ingestion/organizations";
import type { ErrorReply, FieldError, TraceContext } from "@usage-ingestion/shared";
import type { Response } from "express";

export interface RequestLocals {
  requestId: string;
  receivedAt: Date;
  organizationId?: string;
  /** The organization's declared context dimensions, from its key's look-up. */
  dimensions?: readonly string[];
  /** The key's hash and its organization's own rate limits, for the rate limits. */
  key?: { hash: string; limits: OrganizationLimits | undefined };
  /** The key's public id (apiKeyId), for the audit log's actor. */
  keyId?: string;
  /** The caller's access to the organization of a `/v1/orgs/{org}` path (auth/organization-access.ts). */
  access?: OrganizationAccess;
  /** The organization's OTLP settings, from its key's look-up (POST /v1/traces). */
  otel?: OrganizationOtelSettings;
  eventsQueued?: number;
  eventsFailed?: number;
  /** From the `traceparent` Cloud Run sends; forwarded to the worker with each message. */
  trace?: TraceContext;
  /** The request body as read, before parsing; let go once the request's messages are built. */
  bodyText?: Buffer;
  /** Values (object members and array elements) the usage body holds, as parseUsageBody counted them. */
  bodyValues?: number;
  /** A bulk's transactions refused for their own bounds on work, by index (parseUsageBody). */
  shapeErrors?: Map<number, FieldError>;
  /** Why the body is refused, answered once the rate limits have charged it (parseUsageBody). */
  refusal?: ErrorReply;
  /** What the rate limits charged before the body was read (its declared bytes), taken off the full charge. */
  charged?: number;
}

export const locals = (res: Response): RequestLocals => res.locals as RequestLocals;

/**
 * Sends a reply built in `shared` as it is: its status, headers and body. Written straight to Node's
 * response with the headers `res.json` would set (no ETag: the app disables it, and no reply of ours is
 * a 2xx to a GET, so Express's freshness check never applies).
 */
export function send(res: Response, reply: { status: number; body: unknown; headers?: ErrorReply["headers"] }): void {
  if (reply.headers) res.set(reply.headers);
  const json = JSON.stringify(reply.body);
  res.statusCode = reply.status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(json));
  res.end(res.req.method === "HEAD" ? undefined : json);
}
