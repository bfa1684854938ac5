import { join } from "node:path";
import { freePort, spawnGroup, waitFor } from "../../lib/processes.ts";
import { FUNCTIONS_FRAMEWORK, REPO_ROOT } from "../../lib/services.ts";
import { type BacklogPipeline, backlogPipeline } from "../backlog.ts";
import { type BenchContext, MINIMAL_COLLECTION, SERVICE_NODE_OPTIONS, serviceNodeFlags } from "../context.ts";

/** Step 4, the worker's yardstick: the same backlogs pushed by the emulator to a handler that only stores them. */
export async function minimalBacklog(ctx: BenchContext, transactions: number): Promise<BacklogPipeline> {
  const port = await freePort();
  const handler = spawnGroup(
    process.execPath,
    [
      ...serviceNodeFlags(),
      "--import",
      "tsx",
      FUNCTIONS_FRAMEWORK,
      "--target=minimal",
      "--signature-type=cloudevent",
      `--source=${join(REPO_ROOT, "scripts/bench/minimal-handler.ts")}`,
      `--port=${port}`,
    ],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ...ctx.env, NODE_OPTIONS: SERVICE_NODE_OPTIONS },
      logFile: join(ctx.logDir, "minimal-handler.log"),
    },
  );
  ctx.onCleanup(() => handler.stop());
  await waitFor(
    async () => (await fetch(`http://127.0.0.1:${port}/`, { method: "GET" })).status > 0,
    60_000,
    () => "the minimal handler did not start",
  );
  const documents = ctx.db.collection(MINIMAL_COLLECTION);
  return backlogPipeline(ctx, {
    name: "minimal",
    handler,
    handlerBaseUrl: `http://127.0.0.1:${port}`,
    transactions,
    countDone: async () => (await documents.count().get()).data().count,
  });
}
