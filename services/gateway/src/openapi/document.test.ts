import { Ajv2020 } from "ajv/dist/2020.js";
import type express from "express";
import { describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import type { SignIn } from "../auth/session/sign-in.ts";
import { fakeKeyStore } from "../testing/fake-key-store.ts";
import { fakePublisher } from "../testing/fake-publisher.ts";
import { memoryLogger } from "../testing/memory-logger.ts";
import { openApiDocument } from "./document.ts";

type Operation = {
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
};
const document = openApiDocument() as {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object>; securitySchemes: Record<string, object> };
};

/** Nothing is called while routes are mounted: a stand-in for each dependency that throws if it ever is. */
const unused = new Proxy(() => {}, {
  get: () => {
    throw new Error("a dependency was used while mounting the routes");
  },
});
const handler: express.RequestHandler = (_req, _res, next) => next();
const signIn = {
  db: unused,
  config: unused,
  relyingParty: unused,
  access: unused,
  sessions: handler,
  csrf: { guard: handler },
};

/** Every method and path the app serves, as Express holds them, with `:name` written `{name}` as OpenAPI does. */
function mountedRoutes(): Array<{ method: string; path: string }> {
  const app = createApp({
    keys: fakeKeyStore(),
    publisher: fakePublisher(),
    logger: memoryLogger(),
    signIn: signIn as unknown as SignIn,
    // With webhook deps, so the webhook routes are mounted and held to the document too.
    management: {
      // biome-ignore lint/suspicious/noExplicitAny: the proxy stands for every store and throws on use
      databases: { records: unused as any, keys: unused as any },
      // biome-ignore lint/suspicious/noExplicitAny: as above
      webhooks: { queue: unused as any },
    },
  });
  const stack = (app as unknown as { router: { stack: Array<{ route?: { path: unknown; methods: object } }> } }).router
    .stack;
  return stack.flatMap(({ route }) => {
    if (!route) return [];
    const methods = Object.keys(route.methods);
    // `app.all` marks every method: it is a route's 405 fallback, not an operation.
    if (methods.length !== 1) return [];
    const paths = Array.isArray(route.path) ? route.path : [route.path];
    return paths.map((path: string) => ({
      method: methods[0] as string,
      path: path.replace(/:([A-Za-z_]+)/g, "{$1}"),
    }));
  });
}

describe("the OpenAPI document", () => {
  it("describes every route the app serves under /v1/ and /auth/", () => {
    const served = mountedRoutes().filter(({ path }) => path.startsWith("/v1/") || path.startsWith("/auth/"));
    expect(served.length).toBeGreaterThan(15);
    const missing = served.filter(({ method, path }) => !document.paths[path]?.[method]);
    expect(missing).toEqual([]);
  });

  it("is OpenAPI 3.1 whose every schema compiles as JSON Schema 2020-12", () => {
    expect(document.openapi).toBe("3.1.0");
    const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    ajv.addSchema({ $id: "openapi", components: document.components }, "openapi");
    const local = (schema: object) =>
      JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"openapi#/components'));
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const contents = [
          ...Object.values(operation.requestBody?.content ?? {}),
          ...Object.values(operation.responses).flatMap((response) => Object.values(response.content ?? {})),
        ];
        for (const { schema } of contents) expect(() => ajv.compile(local(schema)), `${method} ${path}`).not.toThrow();
      }
    }
    const security = Object.values(document.paths).flatMap((operations) =>
      Object.values(operations).flatMap((operation) => (operation as { security?: object[] }).security ?? []),
    );
    for (const requirement of security) {
      for (const scheme of Object.keys(requirement)) expect(document.components.securitySchemes).toHaveProperty(scheme);
    }
  });

  it("takes the request bodies the routes take, and refuses what they refuse", () => {
    const ajv = new Ajv2020({ strict: false, logger: false });
    const bodyOf = (path: string, method: string) =>
      ajv.compile(document.paths[path]?.[method]?.requestBody?.content["application/json"]?.schema ?? {});
    const createKey = bodyOf("/v1/orgs/{org}/api-keys", "post");
    expect(createKey({ name: "ci", scope: "ingest" })).toBe(true);
    expect(createKey({ name: "ci", scope: "ingest", extra: 1 })).toBe(false);
    const updateKey = bodyOf("/v1/orgs/{org}/api-keys/{id}", "patch");
    expect(updateKey({ status: "disabled" })).toBe(true);
    expect(updateKey({})).toBe(false);
    const invite = bodyOf("/v1/orgs/{org}/members", "post");
    expect(invite({ email: "ana@example.com", role: "viewer" })).toBe(true);
    expect(invite({ email: "ana@example.com", role: "root" })).toBe(false);
    const price = bodyOf("/v1/orgs/{org}/prices", "post");
    expect(price({ provider: "custom", model: "house", unit: "0.25" })).toBe(true);
    expect(price({ provider: "custom", model: "house", input_mtk: "1" })).toBe(false);
  });
});
