import type { Firestore } from "@google-cloud/firestore";
import { PubSub } from "@google-cloud/pubsub";
import type { ChangeContext } from "@usage-ingestion/audit";
import {
  copyApiKeysToKeysDatabase,
  createApiKey,
  disableApiKey,
  listApiKeys,
  listOrganizations,
  parseKeyScope,
  terminateDatabases,
} from "@usage-ingestion/organizations";
import { runPricingAudit } from "@usage-ingestion/prices";
import type { RecordsFeed } from "@usage-ingestion/records";
import { UserError } from "@usage-ingestion/shared";
import type { DeliveryQueue, SecretBox } from "@usage-ingestion/webhooks";
import { adminTarget } from "../lib/local-stack-state.ts";
import { defaultTopologyNames } from "../lib/topology.ts";
import { runAuditCommand } from "./audit-command.ts";
import { runBudgetCommand } from "./budget-cli.ts";
import { readStandardInput, runConnectionsCommand } from "./connection-commands.ts";
import { excerpt, holdDeadLetters, replayDeadLetters } from "./dead-letters.ts";
import { adminDatabases, adminFirestore } from "./firestore.ts";
import { confirmOnGoogleCloud, destructiveChange, guardOptions } from "./google-cloud-guard.ts";
import { HELP } from "./help.ts";
import { runLimitsCommand } from "./limits.ts";
import { operatorOfThisRun } from "./operator.ts";
import { runOrgCreate, runOrgStatus } from "./organization-commands.ts";
import { runOtelCommand } from "./otel.ts";
import { runPricingCommand, runReprice } from "./pricing-cli.ts";
import { runReconcileCommand } from "./reconcile-commands.ts";
import { adminRecordsFeed } from "./records-feed-config.ts";
import { runRecordsCommand } from "./records-publish.ts";
import { runReportCommand } from "./report-commands.ts";
import { runWebhookCommand, webhookClients } from "./webhook-commands.ts";

export type Out = (line: string) => void;

/** `--topic NAME` out of the arguments (default: $PUBSUB_TOPIC, then usage-transactions). */
function topicOption(rest: string[]) {
  const at = rest.indexOf("--topic");
  if (at < 0) return { names: defaultTopologyNames(process.env.PUBSUB_TOPIC || undefined), rest };
  const topic = rest[at + 1];
  if (!topic || topic.startsWith("--")) throw new UserError("--topic needs a value");
  return { names: defaultTopologyNames(topic), rest: rest.filter((_, i) => i !== at && i !== at + 1) };
}

export interface AdminClients {
  /** Pub/Sub, made on first use (only the dead-letter commands need it). */
  pubsub?: () => PubSub;
  /** A client built with `useBigInt`, for the cost sums (see firestoreReportSource). */
  reportsDb?: Firestore;
  /** The keys database's client (KEYS_DATABASE), when keys live apart from the records. */
  keysDb?: Firestore;
  /** What seals webhook secrets (default: WEBHOOK_SECRET_KEY) and where deliveries are queued. */
  webhookBox?: () => SecretBox;
  deliveryQueue?: () => DeliveryQueue;
  /** The records feed (reprice, records publish); default: the records topic through `pubsub`. */
  records?: () => RecordsFeed;
  /** Who the audit log names for this run's changes; default: this machine's operator (operator.ts). */
  change?: ChangeContext;
  /** Standard input, whole (a vendor credential piped in); default: this process's. */
  stdin?: () => Promise<string>;
}

export async function runAdmin(args: string[], db: Firestore, out: Out, clients: AdminClients = {}): Promise<void> {
  let defaultPubSub: PubSub | undefined;
  const pubsub = clients.pubsub ?? (() => (defaultPubSub ??= new PubSub()));
  let feed: RecordsFeed | undefined;
  const records = clients.records ?? (() => (feed ??= adminRecordsFeed(pubsub(), process.env)));
  const reportsDb = clients.reportsDb ?? db;
  const databases = { records: db, keys: clients.keysDb ?? db };
  const change = clients.change ?? operatorOfThisRun();
  const [group, action, ...rest] = args;
  const need = (count: number, usage: string) => {
    if (rest.length < count) throw new UserError(`usage: npm run admin -- ${usage}`);
  };
  const command = `${group ?? ""} ${action ?? ""}`.trim();
  switch (command) {
    case "org create":
      return runOrgCreate(rest, db, out, change);
    case "org disable":
    case "org enable":
      return runOrgStatus(action as "disable" | "enable", rest, db, out, change);
    case "org list": {
      const orgs = await listOrganizations(db);
      if (orgs.length === 0) return out("no organizations");
      for (const org of orgs) {
        out(`${org.id}\t${org.status}\t${org.created_at}\t${(org.dimensions ?? []).join(",") || "-"}\t${org.name}`);
      }
      return;
    }
    case "org limits":
      return runLimitsCommand(rest, db, out, change);
    case "org otel":
      return runOtelCommand(rest, db, out, change);
    case "org connections":
      return runConnectionsCommand(
        rest,
        db,
        out,
        { box: webhookClients(pubsub, clients).box, stdin: clients.stdin ?? (() => readStandardInput()) },
        change,
      );
    case "key create": {
      need(1, "key create <org-id> [--scope ingest|read|admin] [--name NAME]");
      const scopeAt = rest.indexOf("--scope");
      const scope = scopeAt >= 0 ? parseKeyScope(rest[scopeAt + 1] ?? "") : "ingest";
      const nameAt = rest.indexOf("--name");
      const name = nameAt >= 0 ? rest[nameAt + 1] : undefined;
      if (nameAt >= 0 && !name) throw new UserError("--name needs a value");
      const created = await createApiKey(databases, rest[0] as string, undefined, undefined, scope, {
        change,
        ...(name ? { name } : {}),
      });
      out(`created ${scope} key ${created.prefix}... for ${created.organization_id}; it is shown once, keep it now:`);
      return out(created.key);
    }
    case "key list": {
      need(1, "key list <org-id>");
      const keys = await listApiKeys(databases, rest[0] as string);
      if (keys.length === 0) return out("no keys");
      for (const key of keys) {
        out(`${key.prefix}...\t${key.status}\t${key.created_at}\t${key.scope}\t${key.id}\t${key.name ?? "-"}`);
      }
      return;
    }
    case "key disable": {
      need(1, "key disable <key-prefix>");
      const key = await disableApiKey(databases, rest[0] as string, change);
      return out(`disabled key ${key.prefix}... of ${key.organization_id}`);
    }
    case "key migrate": {
      const { copied, present } = await copyApiKeysToKeysDatabase(databases);
      return out(`copied ${copied} keys into database ${databases.keys.databaseId}; ${present} were there already`);
    }
    case "pricing set":
    case "pricing list":
    case "pricing add":
    case "pricing remove":
    case "pricing explain":
    case "pricing catalog":
      return runPricingCommand(action as string, rest, db, out);
    case "budget create":
    case "budget list":
    case "budget show":
    case "budget update":
    case "budget delete":
      return runBudgetCommand(action as string, rest, db, reportsDb, out, change);
    case "pricing audit":
      return runPricingAudit(rest, db, reportsDb, out);
    case "records publish":
      return runRecordsCommand(action as string, rest, db, records, out);
    case "dead-letters list": {
      const { names, rest: extra } = topicOption(rest);
      if (extra.length > 0)
        throw new UserError(
          `unexpected "${extra.join(" ")}"; usage: npm run admin -- dead-letters list [--topic NAME]`,
        );
      const hold = await holdDeadLetters(pubsub(), names);
      await hold.release(hold.letters);
      if (hold.letters.length === 0) return out(`no dead letters in ${names.deadLetterSubscription}`);
      for (const letter of hold.letters) {
        out(
          [
            letter.id,
            letter.organizationId ?? "-",
            `attempts ${letter.attempts ?? "unknown"}`,
            `received ${letter.receivedAt ?? letter.publishTime}`,
            excerpt(letter.data),
          ].join("\t"),
        );
      }
      return out(`${hold.letters.length} dead letter(s) in ${names.deadLetterSubscription}; all kept`);
    }
    case "dead-letters replay": {
      const { names, rest: chosen } = topicOption(rest);
      const all = chosen.includes("--all");
      if (chosen.length === 0 || (all && chosen.length > 1)) {
        throw new UserError("usage: npm run admin -- dead-letters replay [--topic NAME] (--all | <message-id>...)");
      }
      const unknownFlag = chosen.find((id) => id.startsWith("-") && id !== "--all");
      if (unknownFlag) throw new UserError(`unknown option ${unknownFlag}`);
      const outcomes = await replayDeadLetters(pubsub(), db, names, all ? { all: true } : { ids: chosen }, records());
      for (const outcome of outcomes) {
        out(
          "republishedAs" in outcome
            ? `replayed ${outcome.letter.id} onto ${names.topic} as ${outcome.republishedAs}`
            : `skipped ${outcome.letter.id}: its transaction is already stored (record ${outcome.alreadyStoredAs}); published to the records topic; removed from the hold subscription`,
        );
      }
      const replayed = outcomes.filter((outcome) => "republishedAs" in outcome).length;
      return out(`replayed ${replayed} dead letter(s), skipped ${outcomes.length - replayed} already stored`);
    }
    default:
      if (group === "audit") return runAuditCommand(action ? [action, ...rest] : [], databases, out);
      if (group === "webhook") return runWebhookCommand(action, rest, db, out, webhookClients(pubsub, clients), change);
      if (group === "reconcile")
        return runReconcileCommand(action ? [action, ...rest] : [], db, reportsDb, out, change);
      if (await runReportCommand(args, db, reportsDb, out)) return;
      if (group === "reprice" && action) return runReprice([action, ...rest], db, out, records);
      throw new UserError(args.length === 0 ? HELP : `unknown command "${args.join(" ")}"\n\n${HELP}`);
  }
}

const isMain = process.argv[1]?.endsWith("admin/main.ts");
if (isMain) {
  if (process.argv.includes("--help") || process.argv.includes("-h")) {
    console.log(HELP);
    process.exit(0);
  }
  let guard: ReturnType<typeof guardOptions>;
  try {
    guard = guardOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    process.exit(1);
  }
  const { args } = guard;
  if (guard.project) process.env.GOOGLE_CLOUD_PROJECT = guard.project;
  // Before any client is made: they read these variables.
  const target = args.length > 0 ? adminTarget() : undefined;
  if (target?.refused) {
    console.error(target.line);
    process.exit(1);
  }
  if (target) Object.assign(process.env, target.env);
  const options = process.env.GOOGLE_CLOUD_PROJECT ? { projectId: process.env.GOOGLE_CLOUD_PROJECT } : {};
  const db = adminFirestore();
  const reportsDb = adminFirestore(process.env, { useBigInt: true });
  const databases = adminDatabases(db);
  // One line on stderr; stdout stays the output. It names the keys database (KEYS_DATABASE) too: a key
  // written anywhere but where the gateway reads keys is refused there (401).
  if (target) console.error(`${target.line}; keys database: ${databases.keys.databaseId}`);
  const change = target?.googleCloud ? destructiveChange(args) : undefined;
  if (change) {
    try {
      await confirmOnGoogleCloud({
        change,
        project: process.env.GOOGLE_CLOUD_PROJECT as string,
        yes: guard.yes,
        input: process.stdin,
        output: process.stderr,
      });
    } catch (error) {
      console.error(`error: ${(error as Error).message}`);
      process.exit(1);
    }
  }
  let pubsub: PubSub | undefined;
  let code = 0;
  try {
    await runAdmin(args, db, (line) => console.log(line), {
      reportsDb,
      keysDb: databases.keys,
      pubsub: () => {
        pubsub ??= new PubSub(options);
        return pubsub;
      },
    });
  } catch (error) {
    code = error instanceof UserError ? 1 : 2;
    console.error(
      error instanceof UserError ? `error: ${error.message}` : `error: ${(error as Error).message ?? String(error)}`,
    );
  } finally {
    await Promise.all([terminateDatabases(databases), reportsDb.terminate()]);
    await pubsub?.close();
  }
  process.exit(code);
}
