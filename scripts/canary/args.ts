import { parseArgs } from "node:util";

/**
 * `npm run canary`'s arguments and environment: what it needs to run against the real Google endpoints,
 * and its refusal to run anywhere else. Pure, so that its tests need no network.
 */

export const CANARY_HELP = `Usage: npm run canary -- --project PROJECT_ID --topic TOPIC [options]

Publishes and commits against the real Google endpoints with this environment's credentials (a
service account: GOOGLE_APPLICATION_CREDENTIALS, or Application Default Credentials), on our own
transport and on the official clients, then cuts a connection under a publish and under a commit and
checks each is retried on a new connection and applied once. Run it before switching a production
deployment to a new version (docs/operations.md#before-switching-a-transport).

  --project ID     the Google Cloud project (or GOOGLE_CLOUD_PROJECT)
  --topic NAME     a topic of that project the canary may publish to, with no subscription that
                   prices it (never the usage topic: its worker would reject the canary's messages)
  --database ID    the Firestore database to write canary documents in ("(default)")
  --collection C   the collection for them, each deleted after its check ("canary_runs")
  --help           this text

It refuses to run while PUBSUB_EMULATOR_HOST, FIRESTORE_EMULATOR_HOST or
CLOUDSDK_API_ENDPOINT_OVERRIDES_PUBSUB is set: it is for the real endpoints only.`;

export interface CanaryArgs {
  project: string;
  topic: string;
  database: string;
  collection: string;
}

export type CanaryCommand = { help: true } | { help: false; args: CanaryArgs };

/** Why the canary cannot run, in words that say what it needs; exit code 2. */
export class CanaryRefusal extends Error {
  override name = "CanaryRefusal";
}

/** Variables that point the clients (and our calls) at an emulator or another endpoint. */
const ELSEWHERE = ["PUBSUB_EMULATOR_HOST", "FIRESTORE_EMULATOR_HOST", "CLOUDSDK_API_ENDPOINT_OVERRIDES_PUBSUB"];

const NAME = /^[A-Za-z0-9][A-Za-z0-9._~%+-]{0,254}$/;

export function parseCanaryArgs(argv: readonly string[], env: Record<string, string | undefined>): CanaryCommand {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        project: { type: "string" },
        topic: { type: "string" },
        database: { type: "string" },
        collection: { type: "string" },
        help: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new CanaryRefusal(`${(error as Error).message}\n\n${CANARY_HELP}`);
  }
  if (values.help) return { help: true };
  const elsewhere = ELSEWHERE.filter((name) => env[name]);
  if (elsewhere.length > 0) {
    throw new CanaryRefusal(
      `refusing to run: ${elsewhere.join(", ")} ${elsewhere.length === 1 ? "is" : "are"} set. The canary checks the real ` +
        "Google endpoints; unset it in a shell with a project's credentials.",
    );
  }
  const project = (values.project as string | undefined) ?? env.GOOGLE_CLOUD_PROJECT;
  const topic = values.topic as string | undefined;
  const missing = [
    ...(project ? [] : ["a project: --project or GOOGLE_CLOUD_PROJECT"]),
    ...(topic ? [] : ["a topic it may publish to: --topic"]),
  ];
  if (missing.length > 0) throw new CanaryRefusal(`the canary needs ${missing.join(" and ")}\n\n${CANARY_HELP}`);
  const args: CanaryArgs = {
    project: project as string,
    topic: topic as string,
    database: (values.database as string | undefined) ?? "(default)",
    collection: (values.collection as string | undefined) ?? "canary_runs",
  };
  if (!/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/.test(args.project) && !args.project.includes(":")) {
    throw new CanaryRefusal(`--project must be a project id (got ${JSON.stringify(args.project)})`);
  }
  for (const [flag, value] of [
    ["--topic", args.topic],
    ["--collection", args.collection],
  ] as const) {
    if (!NAME.test(value)) throw new CanaryRefusal(`${flag} must be a plain name (got ${JSON.stringify(value)})`);
  }
  if (args.database !== "(default)" && !/^[a-z][a-z0-9-]{2,62}$/.test(args.database)) {
    throw new CanaryRefusal(`--database must be a database id (got ${JSON.stringify(args.database)})`);
  }
  return { help: false, args };
}
