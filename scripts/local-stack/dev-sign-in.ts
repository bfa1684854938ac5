import { randomBytes } from "node:crypto";
import type { Firestore } from "@google-cloud/firestore";
import { operatorChange } from "@usage-ingestion/audit";
import { findMember, inviteMember } from "@usage-ingestion/members";
import { type DevelopmentProvider, startDevelopmentProvider } from "./oidc-provider.ts";

/** The person `npm start` signs in as: an account of the development provider and the dev organization's owner. */
export const DEV_EMAIL = "dev@example.com";

export interface LocalSignIn {
  provider: DevelopmentProvider;
  password: string;
  /** The gateway's sign-in variables (docs/sign-in.md), pointing at the development provider. */
  gatewayEnv: Record<string, string>;
}

/**
 * The development OpenID provider on OIDC_PORT (a free port otherwise) and the gateway's variables for it.
 * The password is DEV_PASSWORD or one made per run and printed: the provider listens on 127.0.0.1 only,
 * but a fixed, published password would still sign anyone on this machine in as the owner.
 */
export async function startLocalSignIn(gatewayBaseUrl: string, env = process.env): Promise<LocalSignIn> {
  const password = env.DEV_PASSWORD || randomBytes(12).toString("base64url");
  const provider = await startDevelopmentProvider({
    ...(env.OIDC_PORT ? { port: Number(env.OIDC_PORT) } : {}),
    redirectUri: `${gatewayBaseUrl}/auth/callback`,
    accounts: [{ email: DEV_EMAIL, password, emailVerified: true }],
  });
  return {
    provider,
    password,
    gatewayEnv: {
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      PUBLIC_BASE_URL: gatewayBaseUrl,
      // Per run: a restart signs everyone out, which is all a development stack needs.
      SESSION_SECRET: randomBytes(32).toString("base64url"),
    },
  };
}

/**
 * Names `email` the organization's owner, as the operator names a first owner: an invitation that takes
 * effect at sign-in. Kept emulators already hold it (or whatever an owner made of it since): left alone.
 */
export async function seedOwner(db: Firestore, organizationId: string, email: string): Promise<void> {
  if (await findMember(db, organizationId, email)) return;
  await inviteMember(db, organizationId, email, "owner", operatorChange("local-stack"));
}
