import { freePort, spawnGroup, waitFor } from "../../lib/processes.ts";
import { GATEWAY_NODE_FLAGS, REPO_ROOT } from "../../lib/services.ts";
import { type BenchContext, SERVICE_NODE_OPTIONS, serviceNodeFlags } from "../context.ts";
import { pinProcess } from "../cpu-affinity.ts";
import type { ServerUnderLoad } from "./http-pair.ts";

/**
 * The yardstick: a bare Express 5 app (`express.json()` and a 202), under the same loads as the gateway
 * and run as the gateway is: the same node binary, the gateway's heap flags and NODE_OPTIONS, no loader
 * (node strips the file's types itself; `--import tsx` would add a loader thread the built gateway does
 * not have), and pinned to the same CPUs.
 */
export async function startBareExpress(ctx: BenchContext): Promise<ServerUnderLoad> {
  const port = await freePort();
  const bare = spawnGroup(
    process.execPath,
    [...GATEWAY_NODE_FLAGS, ...serviceNodeFlags(), "scripts/bench/bare-app.ts"],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, PORT: String(port), NODE_OPTIONS: SERVICE_NODE_OPTIONS },
    },
  );
  ctx.onCleanup(() => bare.stop());
  const url = `http://127.0.0.1:${port}/usage/transactions`;
  await waitFor(
    async () => (await fetch(url, { method: "POST", body: "{}" })).ok,
    30_000,
    () => `the bare app did not start:\n${bare.output()}`,
  );
  const pid = bare.child.pid ?? 0;
  if (ctx.serverCpus) pinProcess(pid, ctx.serverCpus);
  return { name: "bare Express 5 app", pid, url, stop: () => bare.stop() };
}
