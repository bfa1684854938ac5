import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * How the admin command line finds the local stack `npm start` runs: `npm start` records its project, its
 * emulators, its gateway and its own pid in a small JSON file, removes it when it stops, and the admin
 * command line reads it when none of the variables that choose a target is set.
 *
 * The file is `.local-stack.json` at the repository's root (gitignored), not under the temporary
 * directory: a stack belongs to one checkout (two clones each have their own, with no key to derive), the
 * file lives and dies with the checkout, `cat .local-stack.json` shows it, and the two terminals that
 * start the stack and run the admin command line need not agree on TMPDIR. LOCAL_STACK_STATE_FILE
 * names another file (the tests use their own).
 */
export interface LocalStackState {
  projectId: string;
  firestoreEmulatorHost: string;
  pubsubEmulatorHost: string;
  pubsubTopic: string;
  gatewayUrl: string;
  /** The key that seals webhook secrets in this stack, and its deliveries topic (for `admin webhook`). */
  webhookSecretKey?: string;
  webhookDeliveriesTopic?: string;
  /** The `npm start` process; the file is believed only while it runs. */
  pid: number;
  startedAt: string;
}

/** The variables that choose what the admin command line talks to; any one set means the environment wins. */
export const TARGET_VARIABLES = ["GOOGLE_CLOUD_PROJECT", "FIRESTORE_EMULATOR_HOST", "PUBSUB_EMULATOR_HOST"] as const;

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export const localStackStatePath = (env: NodeJS.ProcessEnv = process.env) =>
  env.LOCAL_STACK_STATE_FILE || join(REPO_ROOT, ".local-stack.json");

/** The path as a person reads it: relative to the repository when it is inside it. */
const shownPath = (path: string) => {
  const inside = relative(REPO_ROOT, path);
  return inside && !inside.startsWith("..") ? inside : path;
};

export const processAlive = (pid: number) => {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

function isState(value: unknown): value is LocalStackState {
  const state = value as Partial<LocalStackState> | null;
  return (
    typeof state === "object" &&
    state !== null &&
    typeof state.projectId === "string" &&
    typeof state.firestoreEmulatorHost === "string" &&
    typeof state.pubsubEmulatorHost === "string" &&
    typeof state.pid === "number"
  );
}

/** The recorded stack, if the file is there and readable, and whether its process still runs. */
export function readLocalStackState(
  path = localStackStatePath(),
): { state: LocalStackState; alive: boolean } | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const state: unknown = JSON.parse(readFileSync(path, "utf8"));
    return isState(state) ? { state, alive: processAlive(state.pid) } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Records this stack. Another stack of this checkout that is still running keeps the file (the admin
 * command line goes on talking to the one it knew); that stack's pid is returned and nothing is written.
 */
export function writeLocalStackState(
  state: LocalStackState,
  path = localStackStatePath(),
): { written: true } | { written: false; runningPid: number } {
  const current = readLocalStackState(path);
  if (current?.alive && current.state.pid !== state.pid) return { written: false, runningPid: current.state.pid };
  // Written whole and renamed into place: a reader never sees half a file.
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(partial, path);
  return { written: true };
}

/** Removes the file if it records `pid` (a later stack's file stays). */
export function removeLocalStackState(pid: number, path = localStackStatePath()) {
  if (readLocalStackState(path)?.state.pid === pid) rmSync(path, { force: true });
}

export interface AdminTarget {
  /** Variables to set before any client is made (nothing when the environment already chose). */
  env: Record<string, string>;
  /** The one line that says what the admin command line talks to, or why it refuses to talk to anything. */
  line: string;
  /** Whether Firestore or Pub/Sub is Google Cloud's own rather than an emulator (a destructive change asks first). */
  googleCloud: boolean;
  /** Nothing is named to act on: the command line stops with `line`, before any client is made. */
  refused: boolean;
}

/**
 * What the admin command line talks to: the environment's choice when any of TARGET_VARIABLES is set;
 * otherwise the running local stack of this checkout; otherwise nothing. Google Cloud is reached only
 * with a named project (GOOGLE_CLOUD_PROJECT, which `--project` sets): never the default credentials'
 * project by falling through a stopped stack or a stale state file.
 */
export function adminTarget(env: NodeJS.ProcessEnv = process.env): AdminTarget {
  if (TARGET_VARIABLES.some((name) => env[name])) {
    const googleCloud = !env.FIRESTORE_EMULATOR_HOST || !env.PUBSUB_EMULATOR_HOST;
    if (googleCloud && !env.GOOGLE_CLOUD_PROJECT) {
      const where = env.FIRESTORE_EMULATOR_HOST ? "Pub/Sub" : "Firestore";
      return {
        env: {},
        googleCloud,
        refused: true,
        line: `admin: refusing to run: ${where} would be Google Cloud's, but no project is named; pass --project PROJECT or set GOOGLE_CLOUD_PROJECT (or set both FIRESTORE_EMULATOR_HOST and PUBSUB_EMULATOR_HOST for emulators)`,
      };
    }
    return {
      env: {},
      googleCloud,
      refused: false,
      line: describeTarget(env.GOOGLE_CLOUD_PROJECT, env, "from the environment"),
    };
  }
  const path = localStackStatePath(env);
  const found = readLocalStackState(path);
  if (found?.alive) {
    const { state } = found;
    const stackEnv: Record<string, string> = {
      GOOGLE_CLOUD_PROJECT: state.projectId,
      FIRESTORE_EMULATOR_HOST: state.firestoreEmulatorHost,
      PUBSUB_EMULATOR_HOST: state.pubsubEmulatorHost,
      // No metadata server to ask for a project or credentials on this machine.
      METADATA_SERVER_DETECTION: "none",
      ...(state.pubsubTopic && !env.PUBSUB_TOPIC ? { PUBSUB_TOPIC: state.pubsubTopic } : {}),
      ...(state.webhookSecretKey && !env.WEBHOOK_SECRET_KEY ? { WEBHOOK_SECRET_KEY: state.webhookSecretKey } : {}),
      ...(state.webhookDeliveriesTopic && !env.WEBHOOK_DELIVERIES_TOPIC
        ? { WEBHOOK_DELIVERIES_TOPIC: state.webhookDeliveriesTopic }
        : {}),
    };
    return {
      env: stackEnv,
      googleCloud: false,
      refused: false,
      line: describeTarget(state.projectId, stackEnv, "the local stack"),
    };
  }
  // None of the variables is set and no stack runs: the default credentials' project is never guessed.
  const why = found
    ? `${shownPath(path)} names a local stack, pid ${found.state.pid}, that is no longer running; ignored`
    : "no local stack running";
  return {
    env: {},
    googleCloud: false,
    refused: true,
    line: `admin: refusing to run: nothing named to act on (${why}). Start the local stack with npm start, or name a Google Cloud project with --project PROJECT or GOOGLE_CLOUD_PROJECT`,
  };
}

function describeTarget(projectId: string | undefined, env: NodeJS.ProcessEnv, source: string): string {
  const firestore = env.FIRESTORE_EMULATOR_HOST;
  const pubsub = env.PUBSUB_EMULATOR_HOST;
  if (!firestore && !pubsub) return `admin: project ${projectId} on Google Cloud`;
  const project = projectId ? `project ${projectId}` : "no project set";
  const firestorePart = firestore ? `Firestore emulator ${firestore}` : "Firestore on Google Cloud";
  const pubsubPart = pubsub ? `Pub/Sub emulator ${pubsub}` : "Pub/Sub on Google Cloud";
  return `admin: ${project}, ${firestorePart}, ${pubsubPart} (${source})`;
}
