import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { SecretBox } from "./secret-box.ts";
import type { WebhookDocument, WebhookSecretDocument } from "./webhook-documents.ts";

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes (the spec asks for 24 to 64). */
export const generateWebhookSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

/** What the admin shows of a secret: enough to tell two apart, nothing that signs. */
export const secretPrefix = (secret: string) => secret.slice("whsec_".length, "whsec_".length + 6);

/** The context a webhook's secrets are sealed under (see secret-box.ts). */
export const secretContext = (organizationId: string, webhookId: string) => `${organizationId}/${webhookId}`;

/** The secrets that sign at `now`: the current one, and older ones still in their overlap window. */
export const secretsInEffect = (secrets: readonly WebhookSecretDocument[], now: Date) =>
  secrets.filter((secret) => secret.expires_at === null || Date.parse(secret.expires_at) > now.getTime());

export interface SignedHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/**
 * The Standard Webhooks headers for one attempt, signed by the `standardwebhooks` library with every secret
 * in effect: several `v1,<signature>` entries, space-delimited, any of which a receiver may verify.
 */
export function signDelivery(
  box: SecretBox,
  organizationId: string,
  webhook: Pick<WebhookDocument, "id" | "secrets">,
  messageId: string,
  body: string,
  now: Date,
): SignedHeaders {
  const context = secretContext(organizationId, webhook.id);
  const signatures = secretsInEffect(webhook.secrets, now).map((secret) =>
    new Webhook(box.open(secret.encrypted, context)).sign(messageId, now, body),
  );
  if (signatures.length === 0) throw new Error(`webhook ${webhook.id} has no secret in effect`);
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}
