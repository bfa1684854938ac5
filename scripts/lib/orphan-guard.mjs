// Outlives nothing: stops the process groups its parent started once the parent is gone, however it died
// (SIGKILL included). The parent writes "+<pgid>" when it starts a group and "-<pgid>" when it stopped it;
// the kernel closes this process's stdin when the parent exits, and that is the signal to clean up.
// Plain Node, so it starts in milliseconds without a TypeScript loader.
const groups = new Set();
let pending = "";

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => {});

process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) {
    const pgid = Number(line.slice(1));
    if (!Number.isInteger(pgid) || pgid <= 1) continue;
    if (line.startsWith("+")) groups.add(pgid);
    else if (line.startsWith("-")) groups.delete(pgid);
  }
});
process.stdin.on("close", () => void stopAll());

const signal = (pgid, name) => {
  try {
    process.kill(-pgid, name);
    return true;
  } catch {
    return false;
  }
};
const alive = (pgid) => signal(pgid, 0);
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function stopAll() {
  const left = [...groups].filter(alive);
  if (left.length > 0) {
    console.error(`[stack] the launcher is gone; stopping process group(s) ${left.join(", ")}`);
  }
  for (const pgid of left) signal(pgid, "SIGTERM");
  for (let waited = 0; waited < 5_000 && left.some(alive); waited += 100) await delay(100);
  for (const pgid of left) signal(pgid, "SIGKILL");
  process.exit(0);
}
