import { generateKeyPairSync, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";
import { loginPage } from "./oidc-login-page.ts";

/** An account of the development provider: the email it asserts, the password it takes, verified or not. */
export interface DevelopmentAccount {
  email: string;
  password: string;
  emailVerified: boolean;
}

export interface DevelopmentProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

const MAX_FORM_BYTES = 8 * 1024;

/** The posted form, bounded; undefined when it is too large. */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/**
 * `npm start`'s OpenID Connect provider: panva's oidc-provider (a certified implementation, not a stand-in)
 * with one confidential client, the gateway, and a fixed list of accounts. Code flow with PKCE required;
 * the ID token carries `email` and `email_verified` (what the gateway reads). Consent is implied for this
 * first-party client, so signing in is one form. Listens on 127.0.0.1 only.
 */
export async function startDevelopmentProvider(options: {
  port?: number;
  redirectUri: string;
  accounts: DevelopmentAccount[];
  clientId?: string;
  clientSecret?: string;
}): Promise<DevelopmentProvider> {
  const clientId = options.clientId ?? "usage-gateway";
  const clientSecret = options.clientSecret ?? randomBytes(24).toString("base64url");
  const accounts = new Map(options.accounts.map((account) => [account.email.toLowerCase(), account]));
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signingKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [{ ...signingKey, use: "sig", alg: "RS256" }] as never },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    pkce: { required: () => true },
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    // The gateway reads the email from the ID token, as from Google's or Entra ID's.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    // Short lives, stated: a development sign-in needs minutes, not the library's defaults.
    ttl: { Interaction: 600, Session: 43_200, Grant: 43_200, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: account.email, email_verified: account.emailVerified }),
      };
    },
    // The gateway is this provider's only client and its own: consent is implied, as an operator would set it.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { session, client } = ctx.oidc;
      if (!session?.accountId || !client) return undefined;
      const grantId = session.grantIdFor(client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope("openid email");
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();
  const gatewayOrigin = new URL(options.redirectUri).origin;

  const page = (res: ServerResponse, status: number, html: string) => {
    res.writeHead(status, {
      "Content-Type": "text/html; charset=utf-8",
      // No script at all; the form posts here and is then redirected to the gateway.
      "Content-Security-Policy": `default-src 'none'; form-action 'self' ${gatewayOrigin}; frame-ancestors 'none'`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    });
    res.end(html);
  };

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, posted: boolean) {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) return page(res, 400, loginPage(`/interaction/${details.uid}`, "", "Start again."));
    const action = `/interaction/${details.uid}`;
    if (!posted) return page(res, 200, loginPage(action, ""));
    const form = await readForm(req);
    const email = (form?.get("email") ?? "").trim().toLowerCase().slice(0, 254);
    const account = accounts.get(email);
    if (!account || !sameText(account.password, form?.get("password") ?? "")) {
      return page(res, 401, loginPage(action, email, "That email and password do not match an account here."));
    }
    await provider.interactionFinished(req, res, { login: { accountId: email } }, { mergeWithLastSubmission: false });
  }

  handle = (req, res) => {
    const match = /^\/interaction\/([\w-]{1,64})$/.exec(new URL(req.url ?? "/", issuer).pathname);
    if (!match) return void callback(req, res);
    interaction(req, res, match[1] as string, req.method === "POST").catch(() => {
      if (!res.headersSent)
        page(res, 400, loginPage("/", "", "This sign-in has expired; start again from the console."));
    });
  };

  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
