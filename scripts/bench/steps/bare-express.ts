import { freePort, spawnGroup, waitFor } from "../../lib/processes.ts";
import { REPO_ROOT } from "../../lib/services.ts";
import type { BenchContext } from "../context.ts";
import type { ServerUnderLoad } from "./http-pair.ts";

/** The yardstick: a bare Express 5 app (`express.json()` and a 202), under the same loads as the gateway. */
export async function startBareExpress(ctx: BenchContext): Promise<ServerUnderLoad> {
  const port = await freePort();
  const bare = spawnGroup(process.execPath, ["--import", "tsx", "scripts/bench/bare-app.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(port) },
  });
  ctx.onCleanup(() => bare.stop());
  const url = `http://127.0.0.1:${port}/usage/transactions`;
  await waitFor(
    async () => (await fetch(url, { method: "POST", body: "{}" })).ok,
    30_000,
    () => "the bare app did not start",
  );
  return { name: "bare Express 5 app", pid: bare.child.pid ?? 0, url, stop: () => bare.stop() };
}
