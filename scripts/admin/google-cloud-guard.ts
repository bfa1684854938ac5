import { createInterface } from "node:readline/promises";
import { UserError } from "@usage-ingestion/shared";

/**
 * The admin command line's two guards for Google Cloud: it acts there only on a project it is given
 * (`--project PROJECT` or GOOGLE_CLOUD_PROJECT; see adminTarget), and it asks before a destructive change
 * there. `--yes` answers the question for scripts. Against the emulators nothing is asked.
 */

/** `--project PROJECT` and `--yes` taken out of the arguments; what is left goes to the command. */
export function guardOptions(args: string[]): { args: string[]; project?: string; yes: boolean } {
  const left: string[] = [];
  let project: string | undefined;
  let yes = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === "--yes") yes = true;
    else if (arg === "--project") {
      const value = args[++index];
      if (!value || value.startsWith("--")) throw new UserError("--project needs a project id");
      project = value;
    } else left.push(arg);
  }
  return { args: left, ...(project ? { project } : {}), yes };
}

/**
 * What a command would destroy or switch off, as a person reads it, or undefined for a command that does
 * not: disabling keys or organizations, deleting, replacing or removing what cannot be put back as it
 * was, and writes over many records (reprice, dead-letter replay).
 */
export function destructiveChange(args: string[]): string | undefined {
  const [group, action, ...rest] = args;
  const target = rest.filter((arg) => !arg.startsWith("--")).join(" ");
  switch (`${group ?? ""} ${action ?? ""}`) {
    case "org disable":
      return `disable organization ${target} (every key of it refused)`;
    case "key disable":
      return `disable key ${target}`;
    case "budget delete":
      return `delete budget ${target}`;
    case "webhook delete":
      return `delete webhook ${target} with its deliveries`;
    case "webhook disable":
      return `disable webhook ${target}`;
    case "pricing set":
      return `replace every custom price of ${rest[0] ?? ""}`;
    case "pricing remove":
      return `remove the custom price ${target}`;
    case "pricing catalog":
      return rest[0] === "remove" ? `remove the platform price ${rest.slice(1).join(" ")}` : undefined;
    case "org connections":
      if (rest[0] === "delete") return `remove the ${rest[2] ?? ""} connection of ${rest[1] ?? ""} and its credential`;
      if (rest[0] === "set")
        return `set the ${rest[2] ?? ""} connection of ${rest[1] ?? ""} (replacing a stored credential)`;
      return undefined;
    case "dead-letters replay":
      return `replay dead letters ${target || "(all)"} and remove them from the hold subscription`;
    default:
      if (group === "reprice" && action && !rest.includes("--dry-run")) return `re-price the records of ${action}`;
      return undefined;
  }
}

export interface Confirmation {
  change: string;
  project: string;
  yes: boolean;
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
}

/**
 * Asks before a destructive change on Google Cloud: the answer must be the project's id, typed. Without a
 * terminal to ask (a script, a pipe) the change is refused unless `--yes` is given.
 */
export async function confirmOnGoogleCloud({ change, project, yes, input, output }: Confirmation): Promise<void> {
  if (yes) return;
  if (!input.isTTY) {
    throw new UserError(
      `${change} in Google Cloud project ${project} needs a confirmation: run it in a terminal, or add --yes`,
    );
  }
  const prompt = createInterface({ input, output, terminal: false });
  try {
    const answer = await prompt.question(
      `${change} in Google Cloud project ${project}? Type the project id to go on: `,
    );
    if (answer.trim() !== project) throw new UserError("not confirmed; nothing changed");
  } finally {
    prompt.close();
  }
}
