import { userInfo } from "node:os";
import { type ChangeContext, operatorChange } from "@usage-ingestion/audit";

/**
 * Who runs the command line, as the audit log names an operator: the Google account gcloud is set to
 * (CLOUDSDK_CORE_ACCOUNT) when known, else the OS user. One request id per run ties its entries together.
 */
export function operatorOfThisRun(env: NodeJS.ProcessEnv = process.env): ChangeContext {
  let user = "unknown";
  try {
    user = userInfo().username || user;
  } catch {
    // No passwd entry (some containers): the account, if any, still names the operator.
  }
  return operatorChange(env.CLOUDSDK_CORE_ACCOUNT || env.GOOGLE_ACCOUNT || user);
}
