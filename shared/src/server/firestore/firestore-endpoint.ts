import { ConfigError } from "../config.ts";

/** The settings of the Firestore client that decide where its calls go (`Settings` of @google-cloud/firestore). */
export interface FirestoreClientSettings {
  host?: string;
  servicePath?: string;
  apiEndpoint?: string;
  port?: number;
  ssl?: boolean;
}

/** Where a Firestore call goes: an origin for the channel, and whether it is the emulator (its owner's token). */
export interface FirestoreEndpoint {
  origin: string;
  emulator: boolean;
}

/** As the client validates a host: `host[:port]`, nothing else (its `validateHost`). */
function hostOf(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(`http://${value}/`);
  } catch {
    throw new ConfigError(`${name} must be a host with an optional port (got ${JSON.stringify(value)})`);
  }
  if (url.search !== "" || url.pathname !== "/" || url.username !== "") {
    throw new ConfigError(`${name} must be a host with an optional port (got ${JSON.stringify(value)})`);
  }
  return url;
}

/**
 * Where the Firestore client (9.x, with its generated client) sends its calls, from the same settings, so
 * that our own commits always go where its reads go: FIRESTORE_EMULATOR_HOST first (plaintext), then the
 * settings' `host` (with `ssl`), `servicePath` or `apiEndpoint` (Private Service Connect, regional
 * endpoints), else `firestore.` + the universe domain (GOOGLE_CLOUD_UNIVERSE_DOMAIN, `googleapis.com` by
 * default). Called once at start-up: a bad host stops the process, naming where it came from.
 */
export function firestoreEndpoint(
  settings: FirestoreClientSettings,
  environment: { emulatorHost?: string | undefined; universeDomain?: string | undefined },
): FirestoreEndpoint {
  if (environment.emulatorHost) {
    const url = hostOf("FIRESTORE_EMULATOR_HOST", environment.emulatorHost);
    return { origin: `http://${url.host}`, emulator: true };
  }
  let hostname = settings.servicePath ?? settings.apiEndpoint;
  let port = settings.port;
  if (settings.host !== undefined) {
    const url = hostOf("the Firestore host", settings.host);
    hostname = url.hostname;
    if (url.port !== "" && port === undefined) port = Number(url.port);
  }
  hostname ??= `firestore.${environment.universeDomain ?? "googleapis.com"}`;
  const scheme = settings.ssl === false ? "http" : "https";
  return { origin: `${scheme}://${hostname}:${port ?? 443}`, emulator: false };
}
