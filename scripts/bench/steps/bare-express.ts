import { freePort, spawnGroup, waitFor } from "../../lib/processes.ts";
import { REPO_ROOT } from "../../lib/services.ts";
import type { BenchContext } from "../context.ts";
import { type HttpPair, singleAndBulk } from "./http-pair.ts";

/** Step 1, the yardstick: a bare Express 5 app (`express.json()` and a 202) under the same loads. */
export async function bareExpress(ctx: BenchContext): Promise<HttpPair> {
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
  console.log(`bare Express 5 app: ${ctx.seconds} s single, ${ctx.seconds} s bulk ...`);
  const figures = await singleAndBulk({ pid: bare.child.pid ?? 0, url, seconds: ctx.seconds });
  await bare.stop();
  return figures;
}
