import type { Request, Response } from "express";
import { openApiDocument } from "../openapi/document.ts";

/** `GET /openapi.json`: the document, built once. */
export function openApi() {
  const document = openApiDocument();
  return (_req: Request, res: Response) => {
    res.status(200).json(document);
  };
}
