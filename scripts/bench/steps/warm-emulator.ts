import { pubSubBatcher } from "@usage-ingestion/shared/server";
import { type BenchContext, BULK_SIZE, singleBody } from "../context.ts";

/** How long the Pub/Sub emulator is kept publishing before any server is measured (0 skips it). */
const WARM_UP_SECONDS = Number(process.env.BENCH_EMULATOR_WARM_UP_SECONDS ?? 20);

/**
 * Step 0: publishes from this process, unmeasured, the way the gateway does under the measured loads
 * (its publisher, single messages on 50 concurrent loops, bulks of 100 on 2), so that the emulator's
 * JVM has compiled its publish path before anything is measured. A cold emulator spent 300-450 us of CPU
 * per published request against 60-90 us once warm, on the same two cores as the server being measured,
 * and answered more slowly: the gateway's CPU per request moved by up to 50% with it. Production Pub/Sub
 * is never cold this way. The bare app is measured after this step too, on the same machine state.
 */
export async function warmEmulator(ctx: BenchContext): Promise<number> {
  if (WARM_UP_SECONDS <= 0) return 0;
  console.log(`Pub/Sub emulator: ${WARM_UP_SECONDS} s of publishing as the gateway does, unmeasured ...`);
  const [topic] = await ctx.pubsub.createTopic("bench-emulator-warm-up");
  const batcher = pubSubBatcher(ctx.pubsub, { topic: topic.name, timeoutMs: 10_000, batchMaxMs: 5 });
  const message = { data: singleBody, attributes: { organization_id: ctx.organizationId, schema_version: "1" } };
  const until = Date.now() + WARM_UP_SECONDS * 1000;
  let published = 0;
  const loop = async (size: number) => {
    while (Date.now() < until) {
      const outcomes = await batcher.publish(Array.from({ length: size }, () => ({ ...message })));
      published += outcomes.filter((outcome) => "id" in outcome).length;
    }
  };
  await Promise.all([
    ...Array.from({ length: 50 }, () => loop(1)),
    ...Array.from({ length: 2 }, () => loop(BULK_SIZE)),
  ]);
  await batcher.close();
  return published;
}
