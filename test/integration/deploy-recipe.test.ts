import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Firestore } from "@google-cloud/firestore";
import { PubSub } from "@google-cloud/pubsub";
import { parseGatewayConfig } from "@usage-ingestion/gateway";
import { DEFAULT_DATABASE } from "@usage-ingestion/organizations";
import { RECORDS_TOPIC } from "@usage-ingestion/records";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import {
  DEFAULT_DELIVERIES_TOPIC,
  parseSecretKey,
  secretBox,
  secretContext,
  type WebhookDocument,
} from "@usage-ingestion/webhooks";
import { describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/processes.ts";
import { REPO_ROOT, startGatewayProcess } from "../../scripts/lib/services.ts";
import { defaultTopologyNames } from "../../scripts/lib/topology.ts";
import { tf } from "../infra/hcl.ts";
import { freshShellEnv } from "../setup/admin-process.ts";
import { terraformValues } from "../setup/terraform-values.ts";

// docs/operations.md's deploy recipe, its admin steps run as written: the fenced blocks of "Deploy to Google
// Cloud" are read from the document (an edit there changes what runs), PROJECT becomes a project of its own
// on the emulators, and the steps that only Google Cloud can run (gcloud auth, terraform apply, docker) are
// left out. What the recipe asks of Google Cloud is stood in for: the emulators for Firestore and Pub/Sub,
// a folder for Secret Manager (`gcloud secrets`), the gateway as Terraform configures it (its variables
// read from infra/) for `terraform output -raw gateway_url`. The recipe ends with a first 202.

const DOCUMENT = join(REPO_ROOT, "docs/operations.md");
const SECTION = "## Deploy to Google Cloud";

type Kind = "admin" | "environment" | "secret" | "request" | "infrastructure";
interface Step {
  /** The step as written (continuation lines kept), placeholders replaced. */
  text: string;
  /** On one line, without its trailing comment: what it is classified and named by. */
  line: string;
  kind: Kind;
}

/** The deploy section's shell blocks, one step per command (a line with its `\` continuations). */
function recipeSteps(markdown: string, project: string): Step[] {
  const start = markdown.indexOf(`\n${SECTION}\n`);
  if (start < 0) throw new Error(`docs/operations.md has no "${SECTION}" section`);
  const end = markdown.indexOf("\n## ", start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  const blocks = [...section.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm)].map((match) => match[1] as string);
  const steps: Step[] = [];
  for (const block of blocks) {
    let pending = "";
    for (const raw of block.split("\n")) {
      if (!pending && (raw.trim() === "" || raw.trim().startsWith("#"))) continue;
      pending += raw;
      if (raw.endsWith("\\")) {
        pending += "\n";
        continue;
      }
      const text = pending.replace(/\bPROJECT\b/g, project);
      const line = withoutComment(text.replace(/\\\n\s*/g, " "));
      steps.push({ text, line, kind: kindOf(line) });
      pending = "";
    }
  }
  return steps;
}

/** A command without its trailing `# comment` (a `#` after a blank, outside quotes). */
function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let index = 0; index < line.length; index++) {
    const char = line[index] as string;
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === "#" && /\s/.test(line[index - 1] ?? "")) return line.slice(0, index).trimEnd();
  }
  return line;
}

function kindOf(line: string): Kind {
  if (/\bnpm run admin\b/.test(line)) return "admin";
  if (/^export\s/.test(line)) return "environment";
  if (/\bgcloud secrets\s/.test(line)) return "secret";
  if (/^curl\s/.test(line)) return "request";
  if (/^(gcloud|terraform|docker|cd|cp)\s/.test(line) || /^npm run (build|package:)/.test(line))
    return "infrastructure";
  throw new Error(`the deploy recipe has a step this test neither runs nor knows to leave out: ${line}`);
}

/** Secret Manager as the recipe uses it (`gcloud secrets versions add|access`), in a folder per secret. */
const GCLOUD = `#!${process.execPath}
const fs = require("node:fs");
const path = require("node:path");
const args = process.argv.slice(2);
const flags = {};
const positional = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (!arg.startsWith("--")) positional.push(arg);
  else if (arg.includes("=")) flags[arg.slice(2, arg.indexOf("="))] = arg.slice(arg.indexOf("=") + 1);
  else flags[arg.slice(2)] = args[++i];
}
const fail = (message) => {
  process.stderr.write("ERROR: (gcloud stand-in) " + message + "\\n");
  process.exit(1);
};
const [group, sub, verb, name] = positional;
if (group !== "secrets" || sub !== "versions") fail("only gcloud secrets versions add|access stand in here: " + args.join(" "));
const project = flags.project || process.env.CLOUDSDK_CORE_PROJECT;
if (!project) fail("no project: give --project");
const secret = verb === "add" ? name : flags.secret;
const folder = path.join(process.env.RECIPE_SECRETS, project, secret || "-");
if (!fs.existsSync(folder)) fail("NOT_FOUND: Secret [projects/" + project + "/secrets/" + secret + "] not found");
const versions = fs.readdirSync(folder).map(Number).sort((a, b) => a - b);
if (verb === "add") {
  const data = flags["data-file"] === "-" ? fs.readFileSync(0) : fs.readFileSync(flags["data-file"]);
  if (data.length === 0) fail("an empty secret version");
  fs.writeFileSync(path.join(folder, String(versions.length + 1)), data);
  process.stderr.write("Created version [" + (versions.length + 1) + "] of the secret [" + secret + "].\\n");
} else if (verb === "access" && name === "latest") {
  if (versions.length === 0) fail("NOT_FOUND: Secret Version [latest] not found");
  process.stdout.write(fs.readFileSync(path.join(folder, String(versions.at(-1)))));
} else {
  fail("only versions add NAME and versions access latest stand in here");
}
`;

/** `terraform -chdir=infra/envs/example output -raw NAME`, answered from RECIPE_OUTPUTS. */
const TERRAFORM = `#!${process.execPath}
const args = process.argv.slice(2);
const outputs = JSON.parse(process.env.RECIPE_OUTPUTS);
const [chdir, command, raw, name] = args;
if (chdir !== "-chdir=infra/envs/example" || command !== "output" || raw !== "-raw" || !(name in outputs)) {
  process.stderr.write("terraform stand-in: only -chdir=infra/envs/example output -raw " + Object.keys(outputs) + "\\n");
  process.exit(1);
}
process.stdout.write(outputs[name]);
`;

interface Ran {
  step: Step;
  status: number | undefined;
  stdout: string;
  stderr: string;
}

/** The steps in one shell, in order, as an operator pastes them; each one's outputs and status apart. */
function runInShell(steps: Step[], env: NodeJS.ProcessEnv, envFile: string) {
  const script = [
    ...steps.flatMap((step, index) => [
      `printf '\\n@@step ${index}\\n'; printf '\\n@@step ${index}\\n' >&2`,
      step.text,
      `printf '\\n@@status ${index} %s\\n' "$?"`,
    ]),
    // What an admin command run after the recipe would see.
    `env -0 > '${envFile}'`,
  ].join("\n");
  return new Promise<{ ran: Ran[]; env: Record<string, string> }>((resolve, reject) => {
    const child = spawn("bash", ["-c", script], { cwd: REPO_ROOT, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.once("error", reject);
    child.once("close", () => {
      if (!existsSync(envFile)) return reject(new Error(`the recipe's shell did not finish:\n${stdout}\n${stderr}`));
      const part = (text: string, index: number) =>
        text.split(`\n@@step ${index}\n`)[1]?.split(/\n@@step \d+\n/)[0] ?? "";
      const ran = steps.map((step, index) => {
        const out = part(stdout, index);
        const status = new RegExp(`\\n@@status ${index} (\\d+)\\n`).exec(out)?.[1];
        return {
          step,
          status: status === undefined ? undefined : Number(status),
          stdout: out.replace(/\n@@status \d+ \d+\n?$/, ""),
          stderr: part(stderr, index),
        };
      });
      const entries = readFileSync(envFile, "utf8")
        .split("\0")
        .filter(Boolean)
        .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]);
      resolve({ ran, env: Object.fromEntries(entries) });
    });
  });
}

/** A fresh terminal's environment: nothing set that the recipe must set itself. */
function shellEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const {
    KEYS_DATABASE: _keys,
    WEBHOOK_SECRET_KEY: _secretKey,
    WEBHOOK_DELIVERIES_TOPIC: _deliveries,
    PUBSUB_TOPIC: _topic,
    RECORDS_TOPIC: _records,
    CLOUDSDK_CORE_PROJECT: _gcloudProject,
    BASH_ENV: _bashEnv,
    ...env
  } = freshShellEnv();
  return { ...env, ...extra };
}

const describeSteps = (ran: Ran[]) =>
  ran
    .map(({ step, status, stdout, stderr }) => `$ ${step.line}\n[status ${status}]\n${stdout}${stderr}`.trim())
    .join("\n\n");

describe("the deploy recipe of docs/operations.md", () => {
  it("names only what Terraform creates", async () => {
    const terraform = await terraformValues({ project_id: "PROJECT" });
    const steps = recipeSteps(readFileSync(DOCUMENT, "utf8"), "PROJECT");
    const text = steps.map((step) => step.line).join("\n");
    // Every -target is a module of the example environment, or a resource of one.
    const targets = [...text.matchAll(/-target=(\S+)/g)].map((match) => match[1] as string);
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) {
      const [module, name, type, resource] = target.split(".");
      expect(module, target).toBe("module");
      const call = terraform.query.exampleModule(name as string);
      if (type) expect(terraform.query.resource(call.source.split("/").at(-1), type, resource as string)).toBeDefined();
    }
    // The image goes to the repository the registry module makes, through the registry's host.
    const repository = String(terraform.atRoot(terraform.output("image_repository").value));
    const images = [...text.matchAll(/\s-t\s+(\S+)/g)].map((match) => match[1] as string);
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(image.startsWith(`${repository}/`), image).toBe(true);
    expect(text).toContain(`gcloud auth configure-docker ${repository.split("/")[0]}`);
    // The first request goes to the ingestion gateway.
    expect(terraform.output("gateway_url").value).toBe(
      tf("var.enable_load_balancer ? module.edge[0].url : module.gateway.url"),
    );
    expect(terraform.query.exampleModule("gateway").role).toBe("ingest");
  });

  it("gives a key the deployed gateway takes (202), and webhook commands the key the delivery function signs with", async () => {
    // A project of its own on the emulators: the recipe's names (acme, api-keys) are taken as written.
    const project = `demo-recipe-${randomUUID().slice(0, 8)}`;
    const terraform = await terraformValues({ project_id: project });
    const gatewayEnv = terraform.environment("gateway");
    const workerEnv = terraform.environment("worker");
    const webhookFunction = terraform.query.resource("worker", "google_cloudfunctions2_function", "webhooks");
    const secretVariable = (webhookFunction.service_config[0].secret_environment_variables ?? []).find(
      (entry: { key: string }) => entry.key === "WEBHOOK_SECRET_KEY",
    );
    expect(secretVariable?.version).toBe("latest");
    const secretName = String(terraform.inModule("worker", secretVariable.secret));

    const folder = mkdtempSync(join(tmpdir(), "deploy-recipe-"));
    const bin = join(folder, "bin");
    const secrets = join(folder, "secrets");
    mkdirSync(bin);
    // Terraform creates the secrets (no version): the recipe must add one to each.
    mkdirSync(join(secrets, project, secretName), { recursive: true });
    const pageTokenSecret = terraform.query.resource("iam", "google_secret_manager_secret", "page_token_key");
    mkdirSync(join(secrets, project, String(pageTokenSecret.secret_id)), { recursive: true });
    for (const [name, source] of [
      ["gcloud", GCLOUD],
      ["terraform", TERRAFORM],
    ] as const) {
      writeFileSync(join(bin, name), source);
      chmodSync(join(bin, name), 0o755);
    }

    // Google Cloud as the recipe leaves it: the topic, and the gateway with Terraform's variables.
    const pubsub = new PubSub({ projectId: project });
    await pubsub.createTopic(gatewayEnv.PUBSUB_TOPIC as string);
    const emulators = {
      FIRESTORE_EMULATOR_HOST: process.env.FIRESTORE_EMULATOR_HOST as string,
      PUBSUB_EMULATOR_HOST: process.env.PUBSUB_EMULATOR_HOST as string,
    };
    // All of Terraform's variables but the universe domain: given one, @google-cloud/pubsub takes any
    // endpoint for Google's own and will not talk to its emulator (nothing the deployed gateway meets).
    const { GOOGLE_CLOUD_UNIVERSE_DOMAIN: _universe, ...deployed } = gatewayEnv;
    const port = await freePort();
    const gateway = await startGatewayProcess({ port, env: { ...deployed, ...emulators } });
    const firestore = new Firestore({ projectId: project });
    try {
      const steps = recipeSteps(readFileSync(DOCUMENT, "utf8"), project);
      const run = steps.filter((step) => step.kind !== "infrastructure");
      const { ran, env: after } = await runInShell(
        run,
        shellEnv({
          ...emulators,
          LOCAL_STACK_STATE_FILE: join(folder, "no-local-stack.json"),
          PATH: `${bin}:${process.env.PATH}`,
          RECIPE_SECRETS: secrets,
          RECIPE_OUTPUTS: JSON.stringify({ gateway_url: `http://127.0.0.1:${port}` }),
        }),
        join(folder, "env"),
      );
      const transcript = `${describeSteps(ran)}\n\nthe gateway's log:\n${gateway.output()}`;
      const keyCreate = ran.find(({ step }) => step.kind === "admin" && /\bkey create\b/.test(step.line));

      // The first transaction, with the key the recipe made.
      const request = ran.filter(({ step }) => step.kind === "request");
      expect(request, transcript).toHaveLength(1);
      const status = /^HTTP\/[\d.]+ (\d{3})/m.exec(request[0]?.stdout ?? "")?.[1];
      expect(Number(status), `the gateway's answer; key create said:\n${keyCreate?.stderr}\n\n${transcript}`).toBe(202);
      for (const { step, status: exit } of ran) expect(exit, `${step.line}\n\n${transcript}`).toBe(0);

      // Each key command names the database it writes, the one the gateway reads.
      expect(keyCreate, transcript).toBeDefined();
      expect(keyCreate?.stderr).toMatch(
        new RegExp(`^admin: project ${project}, .*; keys database: ${gatewayEnv.KEYS_DATABASE}$`, "m"),
      );

      // The admin command line reads what the deployed services read, from the recipe's environment or
      // its own defaults.
      const adminValue = (name: string, otherwise: string | undefined) => after[name] || otherwise;
      expect(adminValue("GOOGLE_CLOUD_PROJECT", undefined)).toBe(gatewayEnv.GOOGLE_CLOUD_PROJECT);
      expect(adminValue("KEYS_DATABASE", DEFAULT_DATABASE)).toBe(gatewayEnv.KEYS_DATABASE);
      expect(adminValue("PUBSUB_TOPIC", defaultTopologyNames().topic)).toBe(gatewayEnv.PUBSUB_TOPIC);
      expect(adminValue("RECORDS_TOPIC", RECORDS_TOPIC)).toBe(workerEnv.RECORDS_TOPIC);
      expect(adminValue("WEBHOOK_DELIVERIES_TOPIC", DEFAULT_DELIVERIES_TOPIC)).toBe(workerEnv.WEBHOOK_DELIVERIES_TOPIC);

      // The webhook secret key: a version of Terraform's secret, which the delivery function reads as
      // WEBHOOK_SECRET_KEY (latest), and with which the admin command line sealed the webhook's secret.
      const versions = readdirSync(join(secrets, project, secretName));
      expect(versions, `a version of ${secretName}\n\n${transcript}`).toHaveLength(1);
      const deliveryKey = readFileSync(join(secrets, project, secretName, versions[0] as string), "utf8");
      const webhookCreate = ran.find(({ step }) => step.kind === "admin" && /\bwebhook create\b/.test(step.line));
      expect(webhookCreate, transcript).toBeDefined();
      const organization = /\bwebhook create (\S+)/.exec(webhookCreate?.step.line ?? "")?.[1] as string;
      const printed = webhookCreate?.stdout.trim().split("\n").at(-1);
      expect(printed).toMatch(/^whsec_/);
      const webhooks = await firestore.collection(DOCUMENT_PATHS.webhooks(organization)).get();
      expect(webhooks.size).toBe(1);
      const webhook = webhooks.docs[0]?.data() as WebhookDocument;
      const box = secretBox(parseSecretKey(deliveryKey));
      expect(box.open(webhook.secrets[0]?.encrypted as string, secretContext(organization, webhook.id))).toBe(printed);

      // The page token key: a version of Terraform's secret, which the reports service reads as PAGE_TOKEN_KEY.
      const pageTokenFolder = join(secrets, project, String(pageTokenSecret.secret_id));
      const pageTokenVersions = readdirSync(pageTokenFolder);
      expect(pageTokenVersions, `a version of the page token key\n\n${transcript}`).toHaveLength(1);
      const pageTokenKey = readFileSync(join(pageTokenFolder, pageTokenVersions[0] as string), "utf8");
      expect(() => parseGatewayConfig({ PAGE_TOKEN_KEY: pageTokenKey })).not.toThrow();
    } finally {
      await gateway.stop();
      await Promise.all([firestore.terminate(), pubsub.close()]);
      rmSync(folder, { recursive: true, force: true });
    }
  }, 180_000);
});
