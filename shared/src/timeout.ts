/**
 * Settles with `promise`, or rejects with `onTimeout()` after `ms`: no caller waits on a dependency
 * forever. One promise and one timer per call (this is on the worker's path for every message); a
 * dependency that fails after the time-out (a client closed meanwhile) is handled here, never unhandled.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
