import type { Firestore } from "@google-cloud/firestore";
import type { PubSub } from "@google-cloud/pubsub";
import type { ChangeContext } from "@usage-ingestion/audit";
import { UserError } from "@usage-ingestion/shared";
import {
  createWebhook,
  DEFAULT_DELIVERIES_TOPIC,
  DEFAULT_OVERLAP_MS,
  type DeliveryQueue,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  MAX_LISTED_DELIVERIES,
  MAX_OVERLAP_MS,
  parseEventTypes,
  parseSecretKey,
  pubsubDeliveryQueue,
  replayDelivery,
  replayEvent,
  rotateWebhookSecret,
  type SecretBox,
  SecretKeyError,
  secretBox,
  setWebhookStatus,
} from "@usage-ingestion/webhooks";

type Out = (line: string) => void;

export const WEBHOOK_HELP = `Webhooks (budget and reconciliation events, signed per Standard Webhooks; docs/webhooks.md)
  webhook create <org-id> <url> [--events TYPE,TYPE] [--description TEXT]
                                      an https URL (http only to localhost); events default to all:
                                      budget.threshold_crossed, budget.forecast_exceeded and
                                      reconciliation.drift; the signing secret is printed once,
                                      alone on the last line
  webhook list <org-id>               id, status, events, created, secrets in effect, URL
  webhook disable <org-id> <webhook-id> | webhook enable <org-id> <webhook-id>
                                      stop sending to it (pending deliveries fail) or start again
  webhook delete <org-id> <webhook-id>
                                      delete it with its deliveries; nothing more is sent to it
  webhook rotate-secret <org-id> <webhook-id> [--overlap-hours N]
                                      a new secret, printed once; the old one keeps signing beside it
                                      for N hours (default 24, at most 168, 0: stops at once)
  webhook deliveries <org-id> <webhook-id> [--event EVENT-ID] [--limit N]
                                      the latest deliveries (default 20, at most ${MAX_LISTED_DELIVERIES}), each with
                                      every attempt: time, HTTP status or error, duration
  webhook replay <org-id> <webhook-id> <event-id>
                                      queue that delivery again (same webhook-id), whatever its state
  webhook replay <org-id> --event <event-id>
                                      queue the event again to every active webhook that takes it
  (WEBHOOK_SECRET_KEY encrypts secrets: the local stack's own, or Secret Manager's on Google Cloud;
  WEBHOOK_DELIVERIES_TOPIC, default usage-webhook-deliveries, is where replays are queued)`;

export interface WebhookClients {
  box: () => SecretBox;
  queue: () => DeliveryQueue;
}

/** The secret box of WEBHOOK_SECRET_KEY; a missing or malformed key is the operator's to fix. */
function envSecretBox(): SecretBox {
  try {
    return secretBox(parseSecretKey(process.env.WEBHOOK_SECRET_KEY));
  } catch (error) {
    if (error instanceof SecretKeyError) throw new UserError(error.message);
    throw error;
  }
}

/** The given box and queue, or those of the environment: WEBHOOK_SECRET_KEY, WEBHOOK_DELIVERIES_TOPIC. */
export const webhookClients = (
  pubsub: () => PubSub,
  given: { webhookBox?: () => SecretBox; deliveryQueue?: () => DeliveryQueue },
): WebhookClients => ({
  box: given.webhookBox ?? envSecretBox,
  queue:
    given.deliveryQueue ??
    (() => pubsubDeliveryQueue(pubsub(), process.env.WEBHOOK_DELIVERIES_TOPIC || DEFAULT_DELIVERIES_TOPIC)),
});

/** Positional arguments and `--name value` options; an option not in `allowed` is refused. */
function parseArgs(args: string[], allowed: readonly string[], usage: string) {
  const positional: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const value = args[i + 1];
    if (!allowed.includes(arg)) throw new UserError(`unknown option ${arg}; usage: npm run admin -- ${usage}`);
    if (value === undefined || value.startsWith("--")) throw new UserError(`${arg} needs a value`);
    options.set(arg, value);
    i++;
  }
  return { positional, options };
}

function wholeNumber(text: string, option: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) > max) throw new UserError(`${option} must be a whole number up to ${max}`);
  return Number(text);
}

/**
 * `webhook <verb> ...`: manage an organization's webhooks, list their deliveries, replay; `change` names
 * the operator in the audit log, as for `admin budget`.
 */
export async function runWebhookCommand(
  verb: string | undefined,
  rest: string[],
  db: Firestore,
  out: Out,
  clients: WebhookClients,
  change: ChangeContext,
): Promise<void> {
  switch (verb) {
    case "create": {
      const usage = "webhook create <org-id> <url> [--events TYPE,TYPE] [--description TEXT]";
      const { positional, options } = parseArgs(rest, ["--events", "--description"], usage);
      if (positional.length !== 2) throw new UserError(`usage: npm run admin -- ${usage}`);
      const [organizationId, url] = positional as [string, string];
      const { webhook, secret } = await createWebhook(db, clients.box(), organizationId, {
        url,
        eventTypes: parseEventTypes(options.get("--events")),
        description: options.get("--description"),
        change,
      });
      out(`created webhook ${webhook.id} for ${organizationId}: ${webhook.url} (${webhook.event_types.join(", ")})`);
      out("its signing secret is shown once, keep it now:");
      return out(secret);
    }
    case "list": {
      const { positional } = parseArgs(rest, [], "webhook list <org-id>");
      if (positional.length !== 1) throw new UserError("usage: npm run admin -- webhook list <org-id>");
      const webhooks = await listWebhooks(db, positional[0] as string);
      if (webhooks.length === 0) return out("no webhooks");
      const now = Date.now();
      for (const webhook of webhooks) {
        const secrets = webhook.secrets
          .filter((secret) => secret.expires_at === null || Date.parse(secret.expires_at) > now)
          .map((secret) => `whsec_${secret.prefix}...${secret.expires_at ? ` until ${secret.expires_at}` : ""}`);
        out(
          [
            webhook.id,
            webhook.status,
            webhook.event_types.join(","),
            webhook.created_at,
            secrets.join(","),
            webhook.url,
          ].join("\t"),
        );
      }
      return;
    }
    case "delete": {
      const { positional } = parseArgs(rest, [], "webhook delete <org-id> <webhook-id>");
      if (positional.length !== 2) throw new UserError("usage: npm run admin -- webhook delete <org-id> <webhook-id>");
      await deleteWebhook(db, positional[0] as string, positional[1] as string, change);
      return out(`deleted webhook ${positional[1]} of ${positional[0]}`);
    }
    case "disable":
    case "enable": {
      const { positional } = parseArgs(rest, [], `webhook ${verb} <org-id> <webhook-id>`);
      if (positional.length !== 2) throw new UserError(`usage: npm run admin -- webhook ${verb} <org-id> <webhook-id>`);
      const status = verb === "disable" ? "disabled" : "active";
      await setWebhookStatus(db, positional[0] as string, positional[1] as string, status, change);
      return out(`webhook ${positional[1]} of ${positional[0]} is ${status}`);
    }
    case "rotate-secret": {
      const usage = "webhook rotate-secret <org-id> <webhook-id> [--overlap-hours N]";
      const { positional, options } = parseArgs(rest, ["--overlap-hours"], usage);
      if (positional.length !== 2) throw new UserError(`usage: npm run admin -- ${usage}`);
      const hours = options.get("--overlap-hours");
      const overlapMs =
        hours === undefined
          ? DEFAULT_OVERLAP_MS
          : wholeNumber(hours, "--overlap-hours", MAX_OVERLAP_MS / 3_600_000) * 3_600_000;
      const rotated = await rotateWebhookSecret(db, clients.box(), positional[0] as string, positional[1] as string, {
        overlapMs,
        change,
      });
      out(
        `rotated the secret of webhook ${positional[1]}; the previous one signs too until ${rotated.previousExpireAt}`,
      );
      out("the new signing secret is shown once, keep it now:");
      return out(rotated.secret);
    }
    case "deliveries": {
      const usage = "webhook deliveries <org-id> <webhook-id> [--event EVENT-ID] [--limit N]";
      const { positional, options } = parseArgs(rest, ["--event", "--limit"], usage);
      if (positional.length !== 2) throw new UserError(`usage: npm run admin -- ${usage}`);
      const limitText = options.get("--limit");
      const limit = limitText === undefined ? 20 : wholeNumber(limitText, "--limit", MAX_LISTED_DELIVERIES);
      const listed = await listDeliveries(db, positional[0] as string, positional[1] as string, {
        limit,
        eventId: options.get("--event"),
      });
      if (listed.length === 0) return out("no deliveries");
      for (const { delivery, attempts } of listed) {
        out(
          [
            delivery.id,
            delivery.status,
            delivery.event_type,
            `created ${delivery.created_at}`,
            `attempts ${delivery.attempt_count}`,
          ].join("\t"),
        );
        for (const attempt of attempts) {
          out(
            `  ${attempt.attempted_at}\t${attempt.status_code ?? "-"}\t${attempt.error ?? "ok"}\t${attempt.duration_ms} ms`,
          );
        }
      }
      return;
    }
    case "replay": {
      const usage = "webhook replay <org-id> <webhook-id> <event-id> | webhook replay <org-id> --event <event-id>";
      const { positional, options } = parseArgs(rest, ["--event"], usage);
      const event = options.get("--event");
      const deps = { db, queue: clients.queue(), change };
      if (event !== undefined && positional.length === 1) {
        const ids = await replayEvent(deps, positional[0] as string, event);
        for (const id of ids) out(`queued delivery ${id}`);
        return out(`queued event ${event} to ${ids.length} webhook(s)`);
      }
      if (event !== undefined || positional.length !== 3) throw new UserError(`usage: npm run admin -- ${usage}`);
      const [organizationId, webhookId, eventId] = positional as [string, string, string];
      return out(`queued delivery ${await replayDelivery(deps, organizationId, webhookId, eventId)}`);
    }
    default:
      throw new UserError(`unknown command "webhook ${verb ?? ""}"\n\n${WEBHOOK_HELP}`);
  }
}
