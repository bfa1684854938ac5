import { BUDGET_HELP } from "./budget-cli.ts";
import { CONNECTIONS_HELP } from "./connection-commands.ts";
import { RECONCILE_HELP } from "./reconcile-commands.ts";
import { WEBHOOK_HELP } from "./webhook-commands.ts";

/** What `npm run admin -- --help` prints, and an unknown command beside its error. */
export const HELP = `Usage: npm run admin -- <command>

Organizations
  org create <org-id> [--name NAME] [--owner EMAIL]
                                      create an active organization; --owner invites its first
                                      owner in the same transaction (it takes effect when that
                                      person signs in with that verified email)
  org disable <org-id>                refuse every key of the organization
  org enable <org-id>                 accept its active keys again
  org list                            list organizations (id, status, created, dimensions, name)
  org dimensions set <org-id> <key>...  declare the context keys reports group and filter on (at most 10)
  org dimensions list <org-id>        show them
  org limits set <org-id> [--ingest-transactions-per-second N] [--ingest-burst-transactions N]
                 [--reports-per-minute N]
                                      the organization's own rate limits (N or "default"); the
                                      gateway applies them within its key cache time
  org limits show <org-id>            each limit, its value, and whether it is the organization's
                                      own or the gateway's default
  org otel set <org-id> [--customer-attribute NAME|default] [--context-attributes A,KEY=B|none]
                                      the span or resource attributes POST /v1/traces takes the
                                      billable customer and the context from (docs/opentelemetry.md)
  org otel show <org-id>              them, or the defaults

API keys
  key create <org-id> [--scope ingest|read|admin] [--name NAME]
                                      create a key (default scope ingest: sends usage; read: reports and
                                      dashboard only; admin: the management API, docs/management-api.md);
                                      it is printed once, alone on the last line
  key list <org-id>                   list the organization's keys (prefix, status, created, scope, id,
                                      name)
  key disable <key-prefix>            disable the key with this prefix
  key migrate                         copy every key of the records database into KEYS_DATABASE
                                      (keys already there are left as they are); then deploy the
                                      gateway reading KEYS_DATABASE (docs/decisions/0010)

Audit log
  audit <org-id> [--limit N]          every change, newest first: time, actor, action, target, request
                                      id (docs/management-api.md); this command line's changes name
                                      the operator ($CLOUDSDK_CORE_ACCOUNT, else the OS user)

Custom prices (schema: README; effective_from absent = always in effect, from any receive time)
  pricing set <org-id> <file.json>    replace the organization's whole list of custom prices
  pricing add <org-id> <file|json>    add one price (or an array); same provider, model, model_tier
                                      and effective_from replaces that entry
  pricing remove <org-id> <provider> <model> [--tier TIER] [--effective-from TIME]
                                      remove one entry (no --tier: the entry without a tier; no
                                      --effective-from: the entry that is always in effect)
  pricing list <org-id>               show them
  pricing explain <provider> <model> [--at TIME] [--tier TIER]
                                      the published rates that would apply (default: now, standard
                                      tier) and where each came from
  pricing catalog add <file|json>     add prices to the platform-wide list (every organization; needs
                                      source_url and effective_from; docs/pricing.md#platform-price-list)
  pricing catalog list | remove <provider> <model> --effective-from TIME [--tier TIER]
  pricing catalog explain <provider> <model> [--at TIME] [--tier TIER]
  pricing audit [--from ISO] [--to ISO]
                                      models seen unpriced or priced only by the catalog (counts, every
                                      organization), and table rows read more than 90 days ago
  reprice <org-id> [--dry-run]        price the organization's unpriced records again, listing each
                                      with its amount, and publish each to the records topic with its
                                      revision bumped (BigQuery); --dry-run shows that without writing

Records feed (BigQuery; topic $RECORDS_TOPIC, default usage-records; $PUBSUB_PUBLISH_TRANSPORT wire|client)
  records publish <org-id> --from ISO --to ISO
                                      publish again the organization's records received in [from, to),
                                      500 a page, each page confirmed before the next is read; rows
                                      sent twice are harmless (the view keeps one per message id)

${BUDGET_HELP}

${CONNECTIONS_HELP}

${RECONCILE_HELP}

Dead letters (messages the worker failed 5 times; --topic NAME, default $PUBSUB_TOPIC or usage-transactions)
  dead-letters list                   show what the hold subscription keeps (id, organization,
                                      attempts, receive time, data excerpt); nothing is removed
  dead-letters replay --all           republish every dead letter onto the topic, then remove it (one
                                      whose record is stored already: that record is published to the
                                      records topic instead)
  dead-letters replay <id>...         the same for the dead letters with these ids

${WEBHOOK_HELP}

Reports
  costs <org-id> [--from ISO] [--to ISO] [--by customer,model,...] [field=value]... [--csv]
                                      the GET /usage/costs report in the terminal

Which project: the variables PUBSUB_EMULATOR_HOST, FIRESTORE_EMULATOR_HOST, GOOGLE_CLOUD_PROJECT
when any of them is set (an emulator where its host is set, Google Cloud where not); otherwise the
local stack \`npm start\` runs in this checkout, found by itself (it records itself in .local-stack.json
while it runs); otherwise nothing: the command is refused. Google Cloud is reached only on a project
named with --project PROJECT or GOOGLE_CLOUD_PROJECT, never the default credentials' own, and a
destructive change there (disable, delete, remove, pricing set, reprice, dead-letters replay) asks for
the project id to be typed first; --yes answers for scripts (without a terminal it is required). The
first line on stderr names the project and the emulators used, and the keys database. KEYS_DATABASE names
the Firestore database of the keys (default "(default)", the records' own), as for the gateway
(Terraform sets api-keys). Revocations take effect within the gateway's key cache time (10 s by
default).`;
