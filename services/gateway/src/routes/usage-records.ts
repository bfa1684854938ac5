import { messageIdProblem, parseRecordsQuery, type RecordReader } from "@usage-ingestion/records";
import { notFound, validationFailed } from "@usage-ingestion/shared";
import type { NextFunction, Request, Response } from "express";
import { locals, send } from "../http/send.ts";
import type { ReportCeilings } from "../limits/report-ceilings.ts";

/**
 * `GET /usage/records` (read keys): the organization's records, newest received first, filtered as
 * `/usage/costs` filters, a page at a time on one snapshot (docs/decisions/0023). Read within the report
 * ceilings: past them 422 `report_too_large`, as every report.
 */
export function usageRecords(reader: RecordReader, now: () => Date, ceilings: ReportCeilings) {
  return async (req: Request, res: Response) => {
    const { organizationId, dimensions } = locals(res) as { organizationId: string; dimensions?: readonly string[] };
    const at = now();
    const params = req.query as Record<string, unknown>;
    const parsed = parseRecordsQuery(params, dimensions ?? [], at, reader.pageTokens, organizationId);
    if (!parsed.ok) return send(res, validationFailed(parsed.errors, parsed.message));
    // A report stopped at its ceilings is thrown, and answered by the one error map (422 or 429).
    const ceiling = ceilings();
    const page = await ceiling.around(() => reader.list(organizationId, parsed.query, ceiling, at));
    res.set("Cache-Control", "no-store");
    res.status(200).json(page);
  };
}

/**
 * `GET /usage/records/{message_id}` (read keys): one record whole, as a resource is answered (the record
 * itself, not wrapped). A record of another organization is
 * answered as one that does not exist: 404 `not_found`, whatever the id.
 */
export function usageRecord(reader: RecordReader, timeoutMs: number) {
  return async (req: Request, res: Response) => {
    const organizationId = locals(res).organizationId as string;
    const messageId = String(req.params.message_id ?? "");
    const problem = messageIdProblem(messageId);
    if (problem) return send(res, validationFailed([problem], `Invalid path: ${problem.message}.`));
    const record = await reader.get(organizationId, messageId, timeoutMs);
    if (!record) return send(res, notFound("No record with this message_id in this organization."));
    res.set("Cache-Control", "no-store");
    res.status(200).json(record);
  };
}

/**
 * A `message_id` that is not percent-encoded UTF-8 (`%E0%A4%A`) fails in Express's decoding before any
 * handler runs: answered 400 here, never left to the last resort's 500.
 */
export function recordPathErrors(error: unknown, _req: Request, res: Response, next: NextFunction) {
  if (!(error instanceof URIError) || res.headersSent) return next(error);
  send(
    res,
    validationFailed(
      [{ field: "message_id", code: "invalid_format", message: "message_id must be percent-encoded UTF-8" }],
      "Invalid path: message_id must be percent-encoded UTF-8.",
    ),
  );
}
