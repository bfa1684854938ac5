import * as v from "valibot";
import { jsonLogger, type Logger } from "./logger.ts";
import { textLogger } from "./text-logger.ts";

/** `LOG_FORMAT`: `json` (Cloud Logging's structured lines, the default) or `text` (the local stack's). */
export const logFormatVar = () => v.optional(v.picklist(["json", "text"], 'must be "json" or "text"'), "json");

export const createLogger = (format: "json" | "text", projectId?: string): Logger =>
  format === "text" ? textLogger() : jsonLogger(undefined, projectId);
