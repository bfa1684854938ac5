import type { Firestore } from "@google-cloud/firestore";
import type { RequestHandler } from "express";
import { csrfProtection } from "./csrf.ts";
import { FirestoreSessionStore } from "./firestore-session-store.ts";
import { type OidcRelyingParty, oidcRelyingParty } from "./oidc-relying-party.ts";
import { type SessionAccessResolver, sessionAccessResolver } from "./session-access.ts";
import { sessions } from "./sessions.ts";
import type { SignInConfig } from "./sign-in-config.ts";

/** Everything people's sign-in needs, built once at start-up and passed to createApp. */
export interface SignIn {
  config: SignInConfig;
  /** Members, sessions and organizations: the records database. */
  db: Firestore;
  sessions: RequestHandler;
  csrf: ReturnType<typeof csrfProtection>;
  relyingParty: OidcRelyingParty;
  access: SessionAccessResolver;
}

export function createSignIn(config: SignInConfig, db: Firestore): SignIn {
  return {
    config,
    db,
    sessions: sessions(config, new FirestoreSessionStore(db)),
    csrf: csrfProtection(config.publicOrigin),
    relyingParty: oidcRelyingParty(config),
    access: sessionAccessResolver(db),
  };
}
