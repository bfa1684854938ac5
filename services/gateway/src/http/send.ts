import type { ErrorResponse, FieldError, TraceContext } from "@usage-ingestion/shared";
import { validationErrorResponse } from "@usage-ingestion/shared";
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

export function sendError(res: Response, status: number, body: ErrorResponse): void {
  res.status(status).json(body);
}

export const sendValidationError = (res: Response, status: number, details: FieldError[], message?: string) =>
  sendError(res, status, validationErrorResponse(details, message));
