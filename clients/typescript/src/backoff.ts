export interface BackoffOptions {
  baseDelayMs: number;
  maxDelayMs: number;
  /** A number in [0, 1); `Math.random` unless a test passes its own. */
  random: () => number;
}

/**
 * Exponential backoff with jitter before retry `attempt` (1 for the first retry): the ceiling doubles
 * each time up to `maxDelayMs`, and the wait is drawn between half the ceiling and the ceiling, so
 * clients that failed together do not retry together.
 */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + options.random() * (ceiling / 2));
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
