import * as client from "openid-client";
import type { SignInConfig } from "./sign-in-config.ts";

/** What the callback learned: the issuer's email claim and whether the issuer verified it. */
export interface SignedIn {
  email: unknown;
  emailVerified: boolean;
}

/**
 * The relying party, on openid-client: authorization code with PKCE, the state and the nonce made and
 * checked by the library. The issuer is discovered on the first sign-in (not at start-up, so an issuer
 * that is down stops sign-in only, never the gateway), and again after a discovery that failed.
 */
export function oidcRelyingParty(config: SignInConfig) {
  let discovered: Promise<client.Configuration> | undefined;
  const configuration = () => {
    discovered ??= client
      .discovery(
        config.issuer,
        config.clientId,
        config.clientSecret,
        undefined,
        // Plain HTTP is only ever allowed to a localhost issuer (sign-in-config.ts): the development provider.
        config.issuer.protocol === "http:" ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  };

  return {
    /** Where to send the browser, and what the session keeps to check the answer. */
    async start(): Promise<{ url: URL; verifier: string; state: string; nonce: string }> {
      const issuer = await configuration();
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(issuer, {
        redirect_uri: config.callbackUrl,
        scope: "openid email",
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
        nonce,
      });
      return { url, verifier, state, nonce };
    },

    /** The code exchanged and the ID token checked; throws when anything does not match. */
    async finish(callbackUrl: URL, pending: { verifier: string; state: string; nonce: string }): Promise<SignedIn> {
      const issuer = await configuration();
      const tokens = await client.authorizationCodeGrant(issuer, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      return { email: claims?.email, emailVerified: claims?.email_verified === true };
    },
  };
}

export type OidcRelyingParty = ReturnType<typeof oidcRelyingParty>;
