import { delay, type GroupProcess } from "./processes.ts";

export interface SupervisorOptions {
  /** Restarts allowed within `windowMs`; one more death than that and the supervisor gives up. */
  maxRestarts?: number;
  windowMs?: number;
  /** Pause before each restart, so a crash loop does not spin. */
  restartDelayMs?: number;
  log: (line: string) => void;
  /** Called after each successful restart (the stack redelivers what the worker missed). */
  onRestarted?: () => void | Promise<void>;
  /** Called once when the process keeps dying; the supervisor no longer restarts it. */
  onGiveUp: (reason: string) => void;
}

export interface Supervised {
  current(): GroupProcess;
  restarts(): number;
  stop(): Promise<void>;
}

const describeExit = (code: number | null, signal: NodeJS.Signals | null) =>
  signal ? `killed by ${signal}` : `exit code ${code}`;

/**
 * Keeps a started process running: when it exits on its own it is started again on the same port, with a
 * log line saying so; more than `maxRestarts` deaths within `windowMs` and it gives up, loudly.
 */
export function supervise(
  name: string,
  first: GroupProcess,
  start: () => Promise<GroupProcess>,
  options: SupervisorOptions,
): Supervised {
  const maxRestarts = options.maxRestarts ?? 5;
  const windowMs = options.windowMs ?? 60_000;
  let running = first;
  let stopping = false;
  let total = 0;
  const recent: number[] = [];

  const watch = (watched: GroupProcess) => {
    const exited = (code: number | null, signal: NodeJS.Signals | null) => {
      if (stopping || watched !== running) return;
      void restart(describeExit(code, signal));
    };
    const { child } = watched;
    if (child.exitCode !== null || child.signalCode !== null) exited(child.exitCode, child.signalCode);
    else child.once("exit", exited);
  };

  const restart = async (why: string) => {
    // Whatever the dead process left in its group goes before the new one starts.
    await running.stop();
    while (!stopping) {
      const now = Date.now();
      while (recent.length > 0 && (recent[0] as number) <= now - windowMs) recent.shift();
      if (recent.length >= maxRestarts) {
        const reason = `the ${name} died ${recent.length + 1} times within ${windowMs / 1000} s (last: ${why}); giving up`;
        options.log(reason);
        options.onGiveUp(reason);
        return;
      }
      recent.push(now);
      total++;
      options.log(
        `the ${name} stopped (${why}); restarting it (restart ${recent.length} of ${maxRestarts} allowed within ${windowMs / 1000} s)`,
      );
      await delay(options.restartDelayMs ?? 500);
      if (stopping) return;
      try {
        const started = await start();
        if (stopping) {
          await started.stop();
          return;
        }
        running = started;
        watch(started);
        options.log(`the ${name} is running again (pid ${started.child.pid})`);
        await options.onRestarted?.();
        return;
      } catch (error) {
        why = `failed to start: ${(error as Error).message.split("\n")[0]}`;
      }
    }
  };

  watch(first);
  return {
    current: () => running,
    restarts: () => total,
    async stop() {
      stopping = true;
      await running.stop();
    },
  };
}
