import type { AddressInfo } from "node:net";
import express, { type Response } from "express";
import session from "express-session";
import { afterAll, describe, expect, it } from "vitest";
import { CSRF_HEADER, csrfProtection } from "./csrf.ts";
import { redirectOnceStored } from "./sessions.ts";

/** A memory store whose writes land after the delays given, one per write in order (then 20 ms each). */
class SlowStore extends session.MemoryStore {
  constructor(private readonly delays: number[]) {
    super();
  }
  override set(id: string, data: session.SessionData, callback?: (error?: unknown) => void): void {
    setTimeout(() => super.set(id, data, callback), this.delays.shift() ?? 20);
  }
}

const ORIGIN = "http://127.0.0.1";
const servers: Array<() => void> = [];
afterAll(() => {
  for (const close of servers) close();
});

/** A sign-in's last step as the callback takes it (a new session, the person, saved), answered by `answer`. */
async function app(store: session.Store, answer: (res: Response) => void) {
  const served = express();
  served.use(session({ secret: "a test secret", store, resave: false, saveUninitialized: false }));
  const csrf = csrfProtection(ORIGIN);
  served.get("/callback", async (req, res) => {
    await new Promise<void>((resolve, reject) =>
      req.session.regenerate((error) => (error ? reject(error) : resolve())),
    );
    req.session.person = { email: "a@example.com", signedInAt: Date.now() };
    await new Promise<void>((resolve, reject) => req.session.save((error) => (error ? reject(error) : resolve())));
    answer(res);
  });
  served.use(csrf.guard);
  served.get("/token", async (req, res) => {
    res.setHeader(CSRF_HEADER, await csrf.token(req));
    res.status(204).end();
  });
  served.post("/change", (_req, res) => {
    res.status(204).end();
  });
  const server = served.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  servers.push(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Signs in, takes the token at once, lets every write land, then sends a change with the token. */
async function changeAfterSignIn(baseUrl: string) {
  const signedIn = await fetch(`${baseUrl}/callback`, { redirect: "manual" });
  expect(signedIn.status).toBe(303);
  const cookie = signedIn.headers.getSetCookie()[0]?.split(";")[0] ?? "";
  const token = (await fetch(`${baseUrl}/token`, { headers: { cookie } })).headers.get(CSRF_HEADER) ?? "";
  await new Promise((resolve) => setTimeout(resolve, 500));
  return (
    await fetch(`${baseUrl}/change`, { method: "POST", headers: { cookie, origin: ORIGIN, [CSRF_HEADER]: token } })
  ).status;
}

describe("a redirect after sign-in", () => {
  it("leaves nothing to be stored after it is sent: the token stored next is kept", async () => {
    // The callback's own save, then express-session's second save of the new session (slow), then the token.
    const baseUrl = await app(new SlowStore([20, 300]), (res) => redirectOnceStored(res, "/console"));
    expect(await changeAfterSignIn(baseUrl)).toBe(204);
  });

  it("is what keeps it: a redirect with a body lets the late write undo the token", async () => {
    const baseUrl = await app(new SlowStore([20, 300]), (res) => res.redirect(303, "/console"));
    expect(await changeAfterSignIn(baseUrl)).toBe(403);
  });
});

describe("the redirect's address", () => {
  it("is encoded as express's redirect encodes it", async () => {
    const baseUrl = await app(new session.MemoryStore(), (res) =>
      redirectOnceStored(res, "/console/costs?customer=客户 1"),
    );
    const answer = await fetch(`${baseUrl}/callback`, { redirect: "manual" });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/console/costs?customer=%E5%AE%A2%E6%88%B7%201");
    expect(await answer.text()).toBe("");
  });
});
