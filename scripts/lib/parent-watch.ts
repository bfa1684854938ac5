import { readFileSync } from "node:fs";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** The parent of `pid` and its command line, where /proc tells (Linux); undefined elsewhere. */
function procInfo(pid: number): { ppid: number; command: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    return { ppid, command };
  } catch {
    return undefined;
  }
}

/**
 * The processes whose death means this one should stop: its parent and, when `npm start` (or `npm run`)
 * started it through a shell, every ancestor up to npm itself, which a user may kill directly.
 */
export function ancestorsToWatch(): number[] {
  const watched = [process.ppid];
  if (!process.env.npm_lifecycle_event) return watched;
  const isNpm = (pid: number) => /\bnpm\b/.test(procInfo(pid)?.command ?? "");
  for (let pid = process.ppid; watched.length < 5 && !isNpm(pid); ) {
    const parent = procInfo(pid)?.ppid;
    if (parent === undefined || parent <= 1) break;
    watched.push(parent);
    pid = parent;
  }
  return watched;
}

/**
 * Calls `onGone` once when the parent (or the npm process above it) is gone, so that a launcher whose
 * caller was killed stops what it started instead of running on as an orphan.
 */
export function watchParents(onGone: (pid: number) => void, intervalMs = 500): () => void {
  const parent = process.ppid;
  const watched = ancestorsToWatch();
  const timer = setInterval(() => {
    const gone = process.ppid !== parent ? parent : watched.find((pid) => !alive(pid));
    if (gone === undefined) return;
    clearInterval(timer);
    onGone(gone);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
