import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import { WEBHOOK_DELIVERY_FUNCTION_NAME } from "@usage-ingestion/cost-worker";
import { describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/processes.ts";
import { startWorkerProcess } from "../../scripts/lib/services.ts";

// The local stack's functions (the cost worker and the webhook delivery, under the functions framework,
// which listens on every interface by itself) are reached on 127.0.0.1 and on no other address of the machine.

/** Whether something accepts a connection at this address and port. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2_000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(false));
  });
}

/** This machine's own addresses other than loopback: where another machine would reach it. */
const outward = Object.values(networkInterfaces())
  .flat()
  .filter((address) => address !== undefined && !address.internal)
  .map((address) => (address as { address: string }).address);

describe("the local stack's functions", () => {
  it.runIf(outward.length > 0).each([
    ["the cost worker", undefined],
    ["the webhook delivery", WEBHOOK_DELIVERY_FUNCTION_NAME],
  ])(
    "listen on 127.0.0.1 only: %s",
    async (_name, target) => {
      const port = await freePort();
      const worker = await startWorkerProcess({ port, env: {}, ...(target ? { target } : {}) });
      try {
        expect(await accepts("127.0.0.1", port)).toBe(true);
        for (const address of outward) expect(await accepts(address, port), address).toBe(false);
      } finally {
        await worker.stop();
      }
    },
    90_000,
  );
});
