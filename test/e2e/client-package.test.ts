import { spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/lib/services.ts";

// The client as another project gets it: `npm pack` (which builds it), installed from the tarball into a
// project outside the repository, then imported by Node and type-checked by TypeScript there.

const FIXTURES = join(REPO_ROOT, "clients", "typescript", "test", "fixtures");
const TSC = join(REPO_ROOT, "node_modules", ".bin", "tsc");

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment without npm's `npm_*` variables: `npx vitest` sets them for this process (its prefix is
 * the repository's), and an npm started with them would install into the repository, not the scratch project.
 */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}

function run(command: string, args: string[], cwd: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** npm's own script run by the Node that runs the tests, or else the `npm` on PATH. */
function npm(args: string[], cwd: string): Promise<Ran> {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const found = join(dir, "npm");
    if (!dir || !existsSync(found)) continue;
    const script = realpathSync(found);
    if (script.endsWith(".js")) return run(process.execPath, [script, ...args], cwd);
    break;
  }
  return run("npm", args, cwd);
}

const succeeded = (what: string, ran: Ran) => {
  expect(ran.status, `${what}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
  return ran;
};

/** The scratch project's program: two adapters on vendor examples, and the client on a fake fetch. */
const PROGRAM = `
import { readFileSync } from "node:fs";
import { createClient, fromAnthropic, fromOpenAI } from "@usage-ingestion/client";

const fixture = (name) => JSON.parse(readFileSync(new URL(name, import.meta.url), "utf8"));
const openai = fromOpenAI(fixture("./chat-completion.json"));
const anthropic = fromAnthropic(fixture("./message.json"));

const requests = [];
const answers = [
  { status: 503, body: { error: { code: "internal_error", message: "try again" } } },
  { status: 202, body: { status: "queued", results: [{ transaction_index: 0, message_id: "m-1" }, { transaction_index: 1, message_id: "m-2" }] } },
];
const client = createClient({
  baseUrl: "https://usage.invalid/",
  apiKey: "key-1",
  retryBaseDelayMs: 1,
  random: () => 0,
  fetch: async (url, init) => {
    requests.push({ url, headers: init.headers, body: JSON.parse(init.body) });
    const { status, body } = answers[requests.length - 1];
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  },
});
const ids = [
  client.track({ ...openai, context: { billable_customer_id: "cust-42" } }),
  client.track({ ...anthropic, context: { billable_customer_id: "cust-42", team: "search" } }),
];
const closed = await client.close();
console.log(JSON.stringify({ resolved: import.meta.resolve("@usage-ingestion/client"), openai, anthropic, ids, requests, closed }));
`;

/** A caller's TypeScript, checked against the installed declarations. */
const TYPED = `
import { createClient, fromOpenAI, type DeliveryFailure, type FlushResult, type UsageEntry, type VendorUsage } from "@usage-ingestion/client";

const usage: VendorUsage = fromOpenAI({ model: "gpt-4o", usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
const entries: UsageEntry[] = usage.usage;
const client = createClient({
  baseUrl: "https://usage.example.com",
  apiKey: "key",
  flushAt: 10,
  onError: (failures: DeliveryFailure[]) => failures.map((failure) => failure.reason),
});
const id: string = client.track({ ...usage, usage: entries, context: { billable_customer_id: "cust-42" } });
const closed: Promise<FlushResult> = client.close();
export { closed, id };
`;

/** The same calls with the API key as a number. */
const MISTYPED = `
import { createClient } from "@usage-ingestion/client";

export const client = createClient({ baseUrl: "https://usage.example.com", apiKey: 42 });
`;

describe("the client package, installed from its tarball in a project of its own", () => {
  it("runs and type-checks there without the workspace", { timeout: 120_000 }, async () => {
    const scratch = mkdtempSync(join(tmpdir(), "usage-client-package-"));
    expect(relative(REPO_ROOT, scratch).startsWith("..")).toBe(true);
    try {
      // `prepack` builds: the tarball holds what this checkout's sources build to.
      const packed = join(scratch, "packed");
      mkdirSync(packed);
      succeeded("npm pack", await npm(["pack", "-w", "clients/typescript", "--pack-destination", packed], REPO_ROOT));
      const tarballs = readdirSync(packed).filter((name) => name.endsWith(".tgz"));
      expect(tarballs).toEqual(["usage-ingestion-client-1.0.0.tgz"]);
      const tarball = join(packed, tarballs[0] as string);

      const app = join(scratch, "app");
      mkdirSync(app);
      writeFileSync(join(app, "package.json"), JSON.stringify({ name: "scratch-app", private: true, type: "module" }));
      // The package has no dependencies, so it installs without the network; a normal install otherwise.
      const install = ["install", "--no-audit", "--no-fund", tarball];
      const offline = await npm([...install, "--offline"], app);
      if (offline.status !== 0) succeeded("npm install", await npm(install, app));

      // Installed as a package of its own: a copy, nothing under it, no workspace package beside it.
      const installed = join(app, "node_modules", "@usage-ingestion", "client");
      expect(lstatSync(installed).isSymbolicLink()).toBe(false);
      expect(existsSync(join(installed, "node_modules"))).toBe(false);
      expect(readdirSync(join(app, "node_modules", "@usage-ingestion"))).toEqual(["client"]);
      const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as Record<string, unknown>;
      expect(manifest.dependencies).toBeUndefined();
      expect(JSON.stringify(manifest.peerDependencies ?? {})).not.toContain("@usage-ingestion/");
      expect(manifest.private).toBeUndefined();
      expect(manifest.license).toBe("Apache-2.0");
      expect(readFileSync(join(installed, "LICENSE"), "utf8")).toBe(readFileSync(join(REPO_ROOT, "LICENSE"), "utf8"));

      copyFileSync(join(FIXTURES, "openai", "chat-completion.json"), join(app, "chat-completion.json"));
      copyFileSync(join(FIXTURES, "anthropic", "message.json"), join(app, "message.json"));
      writeFileSync(join(app, "main.js"), PROGRAM);
      const ran = succeeded("node main.js", await run(process.execPath, ["main.js"], app));
      const out = JSON.parse(ran.stdout);

      expect(out.resolved).toBe(pathToFileURL(realpathSync(join(installed, "dist", "index.js"))).href);
      // chat-completion.json: prompt 1117, completion 46, total 1163; the zero breakdowns are left out.
      expect(out.openai).toEqual({
        provider: "openai",
        model: "gpt-4o-2024-08-06",
        transaction_id: "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
        usage: [{ type: "tokens", metrics: { input_tokens: 1117, output_tokens: 46, total_tokens: 1163 } }],
        provider_usage_raw: expect.objectContaining({ prompt_tokens: 1117, completion_tokens: 46 }),
      });
      // message.json: input 2095 (cache excluded), cache read 2051, cache write 2051, output 503;
      // total 2095 + 2051 + 2051 + 503 = 6700; no web search, no one-hour writes, no thinking.
      expect(out.anthropic).toEqual({
        provider: "anthropic",
        model: "claude-opus-5",
        transaction_id: "msg_013Zva2CMHLNnXjNJJKqJ2EF",
        usage: [
          {
            type: "tokens",
            metrics: {
              input_tokens: 2095,
              output_tokens: 503,
              total_tokens: 6700,
              cache_read_input_tokens: 2051,
              cache_creation_input_tokens: 2051,
            },
          },
        ],
        provider_usage_raw: expect.objectContaining({ input_tokens: 2095, output_tokens: 503 }),
      });
      expect(out.ids).toEqual(["chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG", "msg_013Zva2CMHLNnXjNJJKqJ2EF"]);

      // One batch; the 503 retried once with the same transactions, under the same ids.
      expect(out.requests).toHaveLength(2);
      for (const request of out.requests) {
        expect(request.url).toBe("https://usage.invalid/usage/transactions");
        expect(request.headers).toEqual({ "Content-Type": "application/json", "X-Api-Key": "key-1" });
        expect(request.body).toEqual(out.requests[0].body);
      }
      expect(out.requests[0].body.transactions).toEqual([
        { ...out.openai, context: { billable_customer_id: "cust-42" } },
        { ...out.anthropic, context: { billable_customer_id: "cust-42", team: "search" } },
      ]);
      expect(out.closed).toEqual({
        delivered: [
          { transaction_id: "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG", message_id: "m-1" },
          { transaction_id: "msg_013Zva2CMHLNnXjNJJKqJ2EF", message_id: "m-2" },
        ],
        failed: [],
      });

      // The declarations resolve under Node's own module resolution, with every check on (no skipLibCheck).
      const tsc = (file: string) =>
        run(TSC, ["--noEmit", "--module", "nodenext", "--moduleResolution", "nodenext", "--strict", file], app);
      writeFileSync(join(app, "typed.ts"), TYPED);
      succeeded("tsc typed.ts", await tsc("typed.ts"));
      writeFileSync(join(app, "mistyped.ts"), MISTYPED);
      const mistyped = await tsc("mistyped.ts");
      expect(mistyped.status).not.toBe(0);
      expect(mistyped.stdout).toMatch(
        /mistyped\.ts\(4,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/,
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
