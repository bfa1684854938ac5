import { type BacklogPipeline, type DrainFigures, type MedianDrain, medianDrain } from "./backlog.ts";

/** How many backlogs each pipeline drains, the pipelines taking turns (BENCH_ROUNDS). */
export const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

/**
 * Every pipeline drains a backlog of its own ROUNDS times, the pipelines taking turns, so that drift in the
 * machine's state (the emulators, other work on the two cores) falls on each alike; each figure is its
 * median over the rounds (medianDrain).
 */
export async function drainInTurns(pipelines: BacklogPipeline[]): Promise<Map<BacklogPipeline, MedianDrain>> {
  const rounds = new Map(pipelines.map((pipeline) => [pipeline, [] as DrainFigures[]]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const pipeline of pipelines) {
      console.log(`round ${round}/${ROUNDS}: ${pipeline.name} handler, a backlog ...`);
      rounds.get(pipeline)?.push(await pipeline.drain());
    }
  }
  return new Map([...rounds].map(([pipeline, drained]) => [pipeline, medianDrain(drained)]));
}
