import { spawn } from "node:child_process";
import { REPO_ROOT } from "../../scripts/lib/services.ts";

/** The environment of a fresh terminal: none of the variables that choose the admin's target. */
export function freshShellEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const {
    GOOGLE_CLOUD_PROJECT: _project,
    FIRESTORE_EMULATOR_HOST: _firestore,
    PUBSUB_EMULATOR_HOST: _pubsub,
    METADATA_SERVER_DETECTION: _metadata,
    ...env
  } = process.env;
  return { ...env, ...extra };
}

/** The admin command line as a process, as an operator runs it: its exit status and both outputs. */
export function adminProcess(env: NodeJS.ProcessEnv, ...args: string[]) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/admin/main.ts", ...args], {
      cwd: REPO_ROOT,
      env,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, stdout, stderr }));
  });
}
