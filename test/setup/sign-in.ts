import { randomBytes } from "node:crypto";
import { firestoreBudgetSource } from "@usage-ingestion/budgets";
import { createApp, createSignIn, pubSubPublisher, signInConfig } from "@usage-ingestion/gateway";
import { cachedKeyStore, firestoreKeyStore } from "@usage-ingestion/organizations";
import { firestoreReconciliationReader } from "@usage-ingestion/reconciliation";
import { DEVELOPMENT_PAGE_TOKEN_KEY, firestoreRecordReader } from "@usage-ingestion/records";
import { firestoreReportSource } from "@usage-ingestion/reports";
import { secretBox } from "@usage-ingestion/webhooks";
import { type DevelopmentAccount, startDevelopmentProvider } from "../../scripts/local-stack/oidc-provider.ts";
import { CookieJar, signInThrough } from "./browser-sign-in.ts";
import { memoryLogger } from "./gateway.ts";
import { databases, firestore, freeClosedPort, pubsub, reportsFirestore } from "./harness.ts";

export { CookieJar };

export const PASSWORD = "correct horse battery staple";

/**
 * A gateway with sign-in on the emulators, its development provider, and accounts the test names. With
 * `ingestTopic`, it also takes usage (role `both`), publishing to that topic, as `npm start`'s does.
 */
export async function signInFixture(
  accounts: Array<Omit<DevelopmentAccount, "password"> & { password?: string }>,
  options: { ingestTopic?: string; secretKey?: Buffer } = {},
) {
  const port = await freeClosedPort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const provider = await startDevelopmentProvider({
    redirectUri: `${baseUrl}/auth/callback`,
    accounts: accounts.map((account) => ({ password: PASSWORD, ...account })),
  });
  const config = signInConfig({
    OIDC_ISSUER_URL: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    PUBLIC_BASE_URL: baseUrl,
    SESSION_SECRET: "a test session secret of at least 32 characters",
    SESSION_MAX_AGE_HOURS: 12,
  });
  if (!config) throw new Error("sign-in is configured");
  const logger = memoryLogger();
  const app = createApp({
    role: options.ingestTopic ? "both" : "reports",
    ...(options.ingestTopic
      ? { publisher: pubSubPublisher(pubsub(), { topic: options.ingestTopic, timeoutMs: 10_000 }) }
      : {}),
    records: firestoreRecordReader(firestore(), DEVELOPMENT_PAGE_TOKEN_KEY),
    keys: cachedKeyStore(firestoreKeyStore(databases()), { ttlMs: 0, maxEntries: 100, lookupTimeoutMs: 5_000 }),
    logger,
    reports: firestoreReportSource(reportsFirestore()),
    budgets: firestoreBudgetSource(reportsFirestore()),
    reconciliations: firestoreReconciliationReader(firestore()),
    signIn: createSignIn(config, firestore()),
    // The management API beside sign-in: people reach it with their session.
    management: {
      databases: databases(),
      webhooks: { box: secretBox(options.secretKey ?? randomBytes(32)), queue: { queue: async () => {} } },
    },
  });
  const server = app.listen(port, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));

  /** Signs in through the provider's form as a browser would; answers the gateway's last answer. */
  const signIn = (jar: CookieJar, email: string, password = PASSWORD, returnTo?: string) =>
    signInThrough(jar, baseUrl, email, password, returnTo);

  /** GET /v1/me, answering the body and the session's CSRF token. */
  async function me(jar: CookieJar) {
    const response = await jar.fetch(`${baseUrl}/v1/me`);
    return { response, token: response.headers.get("x-csrf-token") ?? "" };
  }

  /** A request with the session, the gateway's Origin and the token (each overridable). */
  function send(
    jar: CookieJar,
    method: string,
    path: string,
    options: { body?: unknown; token?: string; origin?: string | null } = {},
  ) {
    const headers: Record<string, string> = {};
    if (options.origin !== null) headers.origin = options.origin ?? baseUrl;
    if (options.token) headers["x-csrf-token"] = options.token;
    if (options.body !== undefined) headers["content-type"] = "application/json";
    return jar.fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
  }

  return {
    baseUrl,
    provider,
    config,
    logger,
    signIn,
    me,
    send,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await provider.close();
    },
  };
}
