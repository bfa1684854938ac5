import { ConfigError, integerVar, optionalStringVar } from "@usage-ingestion/shared/server";

/** The variables of people's sign-in, parsed with the rest of the gateway's (env.ts). */
export const SIGN_IN_ENV = {
  /** The OpenID Connect issuer, e.g. `https://accounts.google.com`. */
  OIDC_ISSUER_URL: optionalStringVar(),
  OIDC_CLIENT_ID: optionalStringVar(),
  /** From Secret Manager in Google Cloud. */
  OIDC_CLIENT_SECRET: optionalStringVar(),
  /** The gateway's address as browsers see it; the callback is `<PUBLIC_BASE_URL>/auth/callback`. */
  PUBLIC_BASE_URL: optionalStringVar(),
  /** Signs the session cookie; at least 32 characters. From Secret Manager in Google Cloud. */
  SESSION_SECRET: optionalStringVar(),
  /** How long a session lasts from sign-in, however active it is. */
  SESSION_MAX_AGE_HOURS: integerVar(12),
};

const NAMES = ["OIDC_ISSUER_URL", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "PUBLIC_BASE_URL", "SESSION_SECRET"] as const;
type SignInVariables = { [name in (typeof NAMES)[number]]?: string | undefined } & { SESSION_MAX_AGE_HOURS: number };

/** Sign-in as the gateway uses it, derived once from the variables. */
export interface SignInConfig {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /** The origin browsers use for this gateway: what the `Origin` of a state-changing request must be. */
  publicOrigin: string;
  callbackUrl: string;
  sessionSecret: string;
  maxAgeMs: number;
  /**
   * `Secure` and the `__Host-` prefix whenever the public address is HTTPS (every deployment); the local
   * stack's plain-HTTP localhost gets neither, since a browser would drop a Secure cookie there.
   */
  secureCookie: boolean;
  cookieName: string;
}

const url = (name: string, text: string) => {
  try {
    return new URL(text);
  } catch {
    throw new ConfigError(`Invalid configuration: ${name} must be an absolute URL (got ${JSON.stringify(text)})`);
  }
};
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Undefined when none of the variables is set (no sign-in); a ConfigError naming what is missing or wrong. */
export function signInConfig(env: SignInVariables): SignInConfig | undefined {
  const missing = NAMES.filter((name) => env[name] === undefined);
  if (missing.length === NAMES.length) return undefined;
  if (missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration: sign-in needs ${missing.join(", ")} as well (or none of ${NAMES.join(", ")})`,
    );
  }
  const issuer = url("OIDC_ISSUER_URL", env.OIDC_ISSUER_URL as string);
  const base = url("PUBLIC_BASE_URL", env.PUBLIC_BASE_URL as string);
  const secret = env.SESSION_SECRET as string;
  if (secret.length < 32) throw new ConfigError("Invalid configuration: SESSION_SECRET must be at least 32 characters");
  for (const [name, address] of [
    ["OIDC_ISSUER_URL", issuer],
    ["PUBLIC_BASE_URL", base],
  ] as const) {
    if (address.protocol !== "https:" && !(address.protocol === "http:" && LOCAL_HOSTS.has(address.hostname))) {
      throw new ConfigError(`Invalid configuration: ${name} must be https (plain http only on localhost)`);
    }
  }
  const secureCookie = base.protocol === "https:";
  return {
    issuer,
    clientId: env.OIDC_CLIENT_ID as string,
    clientSecret: env.OIDC_CLIENT_SECRET as string,
    publicOrigin: base.origin,
    callbackUrl: new URL("/auth/callback", base).href,
    sessionSecret: secret,
    maxAgeMs: env.SESSION_MAX_AGE_HOURS * 3_600_000,
    secureCookie,
    cookieName: secureCookie ? "__Host-usage_session" : "usage_session",
  };
}
