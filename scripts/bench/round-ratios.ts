import type { MeasuredPair } from "./steps/http-pair.ts";

/** A ratio taken round by round (ours over the yardstick's, both measured in the same round). */
export interface RoundRatios {
  /** Each round's ratio, in round order. */
  rounds: number[];
  median: number;
  min: number;
  max: number;
  /** The middle half of the rounds' ratios: the first and third quartiles. */
  q1: number;
  q3: number;
  /** The median of each lifetime's rounds, when the servers were started afresh more than once. */
  lifetimes?: number[];
}

/** The value at fraction `p` of the sorted values, interpolated between neighbours. */
function quantile(sorted: number[], p: number): number {
  const at = (sorted.length - 1) * p;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  const lowValue = sorted[low] as number;
  return lowValue + ((sorted[high] as number) - lowValue) * (at - low);
}

/**
 * Our figure over the yardstick's, per round: each round measures both a few seconds apart, so a drift of
 * the machine over the run moves both sides of a ratio alike, where a ratio of two medians taken over the
 * whole run would mix rounds far apart. The median of the rounds' ratios is the figure, the quartiles and
 * the extremes its spread.
 */
export function roundRatios(ours: number[], yardstick: number[]): RoundRatios | undefined {
  const rounds = ours.flatMap((value, i) => {
    const base = yardstick[i];
    return base ? [value / base] : [];
  });
  if (rounds.length === 0) return undefined;
  const sorted = [...rounds].sort((a, b) => a - b);
  return {
    rounds,
    median: quantile(sorted, 0.5),
    min: sorted[0] as number,
    max: sorted[sorted.length - 1] as number,
    q1: quantile(sorted, 0.25),
    q3: quantile(sorted, 0.75),
  };
}

/** The gateway's CPU per single request over the bare app's, round by round. */
export const singleRatio = (gateway: MeasuredPair, bare: MeasuredPair): RoundRatios | undefined =>
  roundRatios(
    gateway.rounds.map((round) => round.single.cpuUsPerRequest),
    bare.rounds.map((round) => round.single.cpuUsPerRequest),
  );
