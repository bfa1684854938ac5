import { BlockList, isIP } from "node:net";
import { UserError } from "@usage-ingestion/shared";
import { localReceiversAllowed, MAX_WEBHOOK_URL_LENGTH, NON_PUBLIC_NETWORKS } from "./webhook-documents.ts";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./webhook-events.ts";

// What a webhook may be registered with: its URL, its event types and its description, checked before
// anything is stored (by the command line and the management API alike).

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Addresses a webhook must not name outright (NON_PUBLIC_NETWORKS): this machine, private networks,
 * link-local (the metadata server's 169.254.169.254) and the like. A name that resolves to such an address
 * is refused by the delivery function when it connects (packages/webhooks/src/post-webhook.ts).
 */
const PRIVATE_ADDRESSES = new BlockList();
for (const network of NON_PUBLIC_NETWORKS) {
  const [address, prefix] = network.split("/") as [string, string];
  PRIVATE_ADDRESSES.addSubnet(address, Number(prefix), isIP(address) === 4 ? "ipv4" : "ipv6");
}

function isPrivateAddress(hostname: string): boolean {
  const address = hostname.replace(/^\[|\]$/g, "");
  const family = isIP(address);
  return family !== 0 && PRIVATE_ADDRESSES.check(address, family === 4 ? "ipv4" : "ipv6");
}
export const MAX_DESCRIPTION_LENGTH = 256;

/**
 * Receivers on this machine only while the command line talks to the emulators (the local stack). Read at
 * each call: the command line sets the local stack's variables after its modules are loaded.
 */
const localReceivers = () => localReceiversAllowed(process.env);

/**
 * An https URL; http, and this machine, only on the local stack (`allowLocal`). No credentials in it, no
 * private or reserved address, bounded in length.
 */
export function parseWebhookUrl(text: string, allowLocal = localReceivers()): string {
  if (text.length > MAX_WEBHOOK_URL_LENGTH)
    throw new UserError(`the URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UserError(`"${text}" is not a URL`);
  }
  const local = LOCAL_HOSTS.has(url.hostname);
  if (local && !allowLocal) {
    throw new UserError(`the URL names this machine (${url.hostname}); a receiver must be public`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local)) {
    throw new UserError("the URL must be https (http only to localhost or 127.0.0.1 on the local stack)");
  }
  if (url.username || url.password) throw new UserError("the URL must not hold a user name or password");
  if (!local && isPrivateAddress(url.hostname)) {
    throw new UserError(`the URL names a private or local address (${url.hostname}); a receiver must be public`);
  }
  return url.href;
}

export function parseEventTypes(text: string | undefined): WebhookEventType[] {
  if (text === undefined) return [...WEBHOOK_EVENT_TYPES];
  const types = [...new Set(text.split(",").map((type) => type.trim()))];
  const unknown = types.filter((type) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));
  if (types.length === 0 || unknown.length > 0) {
    throw new UserError(
      `unknown event type ${unknown.join(", ") || "(none)"}; one of ${WEBHOOK_EVENT_TYPES.join(", ")}`,
    );
  }
  return types as WebhookEventType[];
}
