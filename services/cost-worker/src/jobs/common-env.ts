import { logFormatVar, optionalStringVar } from "@usage-ingestion/shared/server";

/** What every job reads: its project (detected when unset) and its log format. */
export const COMMON_ENV = {
  GOOGLE_CLOUD_PROJECT: optionalStringVar(),
  LOG_FORMAT: logFormatVar(),
};
