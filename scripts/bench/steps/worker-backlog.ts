import { join } from "node:path";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { freePort } from "../../lib/processes.ts";
import { startWorkerProcess } from "../../lib/services.ts";
import { type BacklogPipeline, backlogPipeline } from "../backlog.ts";
import { type BenchContext, SERVICE_NODE_OPTIONS, serviceNodeFlags } from "../context.ts";
import { acceptToRecord, type LatencyFigures } from "./accept-to-record.ts";

/**
 * Step 5: the built cost worker, draining backlogs of accepted transactions into priced records; after
 * them, `latency` times single requests from 202 to record through the same gateway and worker.
 */
export async function workerBacklog(
  ctx: BenchContext,
  transactions: number,
): Promise<BacklogPipeline & { latency(samples: number): Promise<LatencyFigures> }> {
  const port = await freePort();
  const worker = await startWorkerProcess({
    port,
    env: { ...ctx.env, CUSTOM_PRICING_CACHE_TTL_MS: "60000", NODE_OPTIONS: SERVICE_NODE_OPTIONS },
    built: true,
    nodeFlags: serviceNodeFlags(),
    logFile: join(ctx.logDir, "worker.log"),
  });
  ctx.onCleanup(() => worker.stop());
  const records = ctx.db.collection(DOCUMENT_PATHS.transactions(ctx.organizationId));
  const pipeline = await backlogPipeline(ctx, {
    name: "worker",
    handler: worker,
    handlerBaseUrl: `http://127.0.0.1:${port}`,
    transactions,
    countDone: async () => (await records.count().get()).data().count,
  });
  return {
    ...pipeline,
    latency: (samples) => acceptToRecord({ gatewayUrl: pipeline.gatewayUrl, headers: ctx.headers, records, samples }),
  };
}
