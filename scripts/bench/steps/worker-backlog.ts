import { join } from "node:path";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { freePort } from "../../lib/processes.ts";
import { startWorkerProcess } from "../../lib/services.ts";
import { type DrainFigures, drainBacklog } from "../backlog.ts";
import { type BenchContext, SERVICE_NODE_OPTIONS, serviceNodeFlags } from "../context.ts";
import { acceptToRecord, type LatencyFigures } from "./accept-to-record.ts";

/**
 * Steps 4 and 5: the built cost worker drains a backlog of accepted transactions into priced records,
 * then single requests are timed from 202 to record through the same gateway and worker.
 */
export async function workerBacklog(
  ctx: BenchContext,
  transactions: number,
  latencySamples: number,
): Promise<{ backlog: DrainFigures; acceptToRecord: LatencyFigures }> {
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
  console.log(`cost worker: a backlog of ${transactions} transactions ...`);
  const { figures, gatewayUrl } = await drainBacklog(ctx, {
    name: "worker",
    handler: worker,
    handlerBaseUrl: `http://127.0.0.1:${port}`,
    transactions,
    countDone: async () => (await records.count().get()).data().count,
  });
  console.log(`202-to-record latency: ${latencySamples} requests ...`);
  const latency = await acceptToRecord({ gatewayUrl, headers: ctx.headers, records, samples: latencySamples });
  await worker.stop();
  return { backlog: figures, acceptToRecord: latency };
}
