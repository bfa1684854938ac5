import type { AddressInfo } from "node:net";
import express from "express";
import session from "express-session";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSRF_HEADER, csrfProtection } from "./csrf.ts";

/** A memory store whose writes land a while after they are asked for, as a remote database's may. */
class SlowStore extends session.MemoryStore {
  override set(id: string, data: session.SessionData, callback?: (error?: unknown) => void): void {
    setTimeout(() => super.set(id, data, callback), 150);
  }
}

let baseUrl: string;
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.use(session({ secret: "a test secret", store: new SlowStore(), resave: false, saveUninitialized: false }));
  const origin = "http://127.0.0.1";
  const csrf = csrfProtection(origin);
  app.post("/sign-in", (req, res) => {
    req.session.person = { email: "a@example.com", signedInAt: Date.now() };
    res.status(204).end();
  });
  app.use(csrf.guard);
  app.get("/token", async (req, res) => {
    res.setHeader(CSRF_HEADER, await csrf.token(req));
    res.json({ body: "x".repeat(10_000) });
  });
  app.post("/change", (_req, res) => {
    res.status(204).end();
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

describe("the CSRF token", () => {
  it("is stored before its header is answered: a change sent on the header alone is accepted", async () => {
    const signedIn = await fetch(`${baseUrl}/sign-in`, { method: "POST" });
    expect(signedIn.status).toBe(204);
    const cookie = signedIn.headers.getSetCookie()[0]?.split(";")[0] ?? "";
    const answer = await fetch(`${baseUrl}/token`, { headers: { cookie } });
    const token = answer.headers.get(CSRF_HEADER) ?? "";
    expect(token.length).toBeGreaterThan(10);
    // The body is left unread: the change goes out as soon as the header is in.
    const change = await fetch(`${baseUrl}/change`, {
      method: "POST",
      headers: { cookie, origin: "http://127.0.0.1", [CSRF_HEADER]: token },
    });
    expect(change.status).toBe(204);
    await answer.text();
    const again = await fetch(`${baseUrl}/token`, { headers: { cookie } });
    expect(again.headers.get(CSRF_HEADER)).toBe(token);
  });
});
