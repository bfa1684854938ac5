import type { ErrorReply, TraceContext } from "@usage-ingestion/shared";
import type { Response } from "express";

export interface RequestLocals {
  requestId: string;
  receivedAt: Date;
  organizationId?: string;
  eventsQueued?: number;
  eventsFailed?: number;
  /** From the `traceparent` Cloud Run sends; forwarded to the worker with each message. */
  trace?: TraceContext;
}

export const locals = (res: Response): RequestLocals => res.locals as RequestLocals;

/** Sends a reply built in `shared` as it is: its status, headers and body. */
export function send(res: Response, reply: { status: number; body: unknown; headers?: ErrorReply["headers"] }): void {
  if (reply.headers) res.set(reply.headers);
  res.status(reply.status).json(reply.body);
}
