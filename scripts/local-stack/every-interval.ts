/**
 * Runs `step` every `intervalMs` in this process, as Cloud Scheduler ticks a function in Google Cloud: a
 * tick while the last run is still under way is skipped, so runs never overlap. What a run throws goes
 * to `onError`. The returned stop clears the timer and waits for a run under way.
 */
export function everyInterval(
  step: () => Promise<void>,
  intervalMs: number,
  onError: (error: Error) => void,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= step()
      .catch((error: unknown) => onError(error as Error))
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  return async () => {
    clearInterval(timer);
    await running;
  };
}
