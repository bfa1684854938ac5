import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cachedKeyStore, type KeyCacheOptions } from "@usage-ingestion/organizations";
import { createApp, type GatewayDeps } from "../app.ts";
import { answerParserErrors } from "../http/parser-errors.ts";
import { type FakeKeyStore, fakeKeyStore } from "./fake-key-store.ts";
import { type FakePublisher, fakePublisher } from "./fake-publisher.ts";
import { type MemoryLogger, memoryLogger } from "./memory-logger.ts";

/** Responses whose JSON a test reads freely: its assertions check the shape. */
// biome-ignore lint/suspicious/noExplicitAny: bodies are checked by the assertions, not by types
export type JsonResponse = Omit<Response, "json"> & { json(): Promise<any> };

export interface TestGateway {
  baseUrl: string;
  keys: FakeKeyStore;
  publisher: FakePublisher;
  logger: MemoryLogger;
  /** A request to the gateway: `path` and fetch's own options. */
  request(path: string, init?: RequestInit): Promise<JsonResponse>;
  /** POST /usage/transactions with `body` (an object is sent as its JSON) and the key, if any. */
  postUsage(body: unknown, headers?: Record<string, string>): Promise<JsonResponse>;
  close(): Promise<void>;
}

/**
 * The app as server.ts wires it, on fakes of the key store and the publisher (and whatever `deps` gives,
 * a report source say), listening on an ephemeral port of the loopback interface. `keyCache` puts the
 * key cache server.ts uses in front of the fake store (absent, every request asks the store).
 */
export async function startTestGateway(
  deps: Omit<Partial<GatewayDeps>, "keys" | "publisher" | "logger"> = {},
  options: { keyCache?: KeyCacheOptions } = {},
): Promise<TestGateway> {
  const keys = fakeKeyStore();
  const publisher = fakePublisher();
  const logger = memoryLogger();
  const store = options.keyCache ? cachedKeyStore(keys, options.keyCache) : keys;
  const app = createApp({ keys: store, publisher, logger, ...deps });
  const server: Server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  answerParserErrors(server, logger);
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = (path: string, init?: RequestInit) => fetch(`${baseUrl}${path}`, init);
  return {
    baseUrl,
    keys,
    publisher,
    logger,
    request,
    postUsage: (body, headers = {}) =>
      request("/usage/transactions", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
