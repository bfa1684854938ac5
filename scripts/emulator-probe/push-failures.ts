import { createServer, type Server } from "node:http";
import { PubSub, v1 } from "@google-cloud/pubsub";
import { startEmulator } from "../lib/emulators.ts";
import { delay, freePort } from "../lib/processes.ts";

/**
 * Measures how the Pub/Sub emulator treats push deliveries that keep failing: answered 500, or refused
 * because nothing listens. Each case has its own topic and subscription; the endpoint fails (or is down)
 * for FAIL_MS, then answers 204. Printed: attempts per message while failing, the gaps between attempts,
 * how many messages arrive once the endpoint is back, and how many reached the dead-letter topic.
 * Run: `npx tsx scripts/emulator-probe/push-failures.ts` (about two minutes).
 */
const FAIL_MS = Number(process.env.FAIL_MS ?? 30_000);
const RECOVER_MS = Number(process.env.RECOVER_MS ?? 40_000);
const MESSAGES = 4;

interface Case {
  name: string;
  failure: "500" | "down";
  retry: boolean;
  deadLetter: boolean;
  /** Seek the subscription to the epoch every this many ms while failing (a redelivery sweep). */
  sweepMs?: number;
}
const CASES: Case[] = [
  { name: "500, no policies", failure: "500", retry: false, deadLetter: false },
  { name: "500, retry policy", failure: "500", retry: true, deadLetter: false },
  { name: "500, retry + dead letter (5)", failure: "500", retry: true, deadLetter: true },
  { name: "down, no policies", failure: "down", retry: false, deadLetter: false },
  { name: "down, retry policy", failure: "down", retry: true, deadLetter: false },
  { name: "down, retry + dead letter (5)", failure: "down", retry: true, deadLetter: true },
  { name: "500, dead letter (5) only", failure: "500", retry: false, deadLetter: true },
  { name: "down, dead letter (5) only", failure: "down", retry: false, deadLetter: true },
  { name: "500, retry + dead letter (5), sweep 5 s", failure: "500", retry: true, deadLetter: true, sweepMs: 5_000 },
  { name: "down, retry + dead letter (5), sweep 5 s", failure: "down", retry: true, deadLetter: true, sweepMs: 5_000 },
];

const attempts = new Map<string, number[]>(); // "case|messageId" -> times (ms since start)
const delivered = new Set<string>();
const t0 = Date.now();
let failing = true;

function endpoint(port: number, failure: Case["failure"]): Server {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const name = decodeURIComponent((req.url ?? "/").slice(1));
      const id = (JSON.parse(body) as { message: { messageId: string } }).message.messageId;
      const key = `${name}|${id}`;
      attempts.set(key, [...(attempts.get(key) ?? []), Date.now() - t0]);
      if (failing && failure === "500") {
        res.writeHead(500).end();
        return;
      }
      delivered.add(key);
      res.writeHead(204).end();
    });
  });
  if (failure === "500") server.listen(port, "127.0.0.1");
  return server;
}

const emulatorPort = await freePort();
const emulator = await startEmulator("pubsub", "demo-probe", emulatorPort);
process.env.PUBSUB_EMULATOR_HOST = `127.0.0.1:${emulatorPort}`;
const pubsub = new PubSub({ projectId: "demo-probe" });
const ports = { "500": await freePort(), down: await freePort() };
const subscriber = new v1.SubscriberClient(
  (await pubsub.getClientConfig()) as ConstructorParameters<typeof v1.SubscriberClient>[0],
);
const servers = { "500": endpoint(ports["500"], "500"), down: endpoint(ports.down, "down") };
const endpointOf = (c: Case) => `http://127.0.0.1:${ports[c.failure]}/${encodeURIComponent(c.name)}`;
const published = new Map<string, string[]>();
const deliveredCount = (c: Case) =>
  (published.get(c.name) ?? []).filter((id) => delivered.has(`${c.name}|${id}`)).length;
const report = (phase: string) =>
  console.log(`${phase}: ${CASES.map((c) => `${c.name} ${deliveredCount(c)}/${MESSAGES}`).join("; ")}`);
try {
  for (const [index, c] of CASES.entries()) {
    const [topic] = await pubsub.createTopic(`probe-${index}`);
    const [deadTopic] = await pubsub.createTopic(`probe-${index}-dead`);
    await deadTopic.createSubscription(`probe-${index}-hold`);
    await topic.createSubscription(`probe-${index}-push`, {
      pushConfig: { pushEndpoint: endpointOf(c) },
      ackDeadlineSeconds: 60,
      ...(c.retry ? { retryPolicy: { minimumBackoff: { seconds: 1 }, maximumBackoff: { seconds: 10 } } } : {}),
      ...(c.deadLetter ? { deadLetterPolicy: { deadLetterTopic: deadTopic.name, maxDeliveryAttempts: 5 } } : {}),
    });
  }
  const failureStart = Date.now() - t0;
  for (const [index, c] of CASES.entries()) {
    const topic = pubsub.topic(`probe-${index}`);
    const ids: string[] = [];
    for (let i = 0; i < MESSAGES; i++) ids.push(await topic.publishMessage({ data: Buffer.from(`m${i}`) }));
    published.set(c.name, ids);
  }
  const sweeps = CASES.flatMap((c, index) =>
    c.sweepMs ? [setInterval(() => void pubsub.subscription(`probe-${index}-push`).seek(new Date(0)), c.sweepMs)] : [],
  );
  await delay(FAIL_MS);
  failing = false;
  servers.down.listen(ports.down, "127.0.0.1");
  const failureEnd = Date.now() - t0;
  await delay(RECOVER_MS);
  for (const sweep of sweeps) clearInterval(sweep);
  report(`delivered ${RECOVER_MS / 1000} s after the endpoints recovered`);

  for (const [index, c] of CASES.entries()) {
    const times = (published.get(c.name) ?? []).map((id) => attempts.get(`${c.name}|${id}`) ?? []);
    const whileFailing = times.map((list) => list.filter((t) => t < failureEnd).length);
    const gaps = (times[0] ?? [])
      .filter((t) => t < failureEnd)
      .map((t, i, all) => (i === 0 ? t - failureStart : t - (all[i - 1] ?? 0)));
    const [dead] = await subscriber.pull(
      { subscription: pubsub.subscription(`probe-${index}-hold`).name, maxMessages: 100, returnImmediately: true },
      { timeout: 5_000 },
    );
    const attributes = dead.receivedMessages?.[0]?.message?.attributes;
    if (attributes) console.log(`${c.name}: a dead letter's attributes ${JSON.stringify(attributes)}`);
    console.log(
      `${c.name}: attempts in ${FAIL_MS / 1000} s of failure per message ${JSON.stringify(whileFailing)}; ` +
        `first message's gaps (ms) ${JSON.stringify(gaps)}; dead-lettered ${dead.receivedMessages?.length ?? 0}`,
    );
  }

  for (const [index, c] of CASES.entries()) {
    await pubsub.subscription(`probe-${index}-push`).modifyPushConfig({ pushEndpoint: endpointOf(c) });
  }
  await delay(15_000);
  report("15 s after re-setting each push config");
  for (const [index, c] of CASES.entries()) {
    const subscription = pubsub.subscription(`probe-${index}-push`).name;
    const [pulled] = await subscriber.pull(
      { subscription, maxMessages: 100, returnImmediately: true },
      { timeout: 5_000 },
    );
    const ackIds = (pulled.receivedMessages ?? []).map((item) => item.ackId ?? "");
    if (ackIds.length > 0) await subscriber.modifyAckDeadline({ subscription, ackIds, ackDeadlineSeconds: 0 });
    console.log(`pull on the push subscription of ${c.name}: ${ackIds.length} message(s)`);
  }
  for (const [index] of CASES.entries()) await pubsub.subscription(`probe-${index}-push`).seek(new Date(0));
  await delay(15_000);
  report("15 s after seeking each subscription to the epoch");
  const before = new Map([...attempts].map(([key, list]) => [key, list.length]));
  for (const [index] of CASES.entries()) await pubsub.subscription(`probe-${index}-push`).seek(new Date(0));
  await delay(10_000);
  const again = [...attempts].filter(([key, list]) => delivered.has(key) && list.length > (before.get(key) ?? 0));
  console.log(`seeking to the epoch once everything was acknowledged pushed ${again.length} message(s) again`);
} finally {
  for (const server of Object.values(servers)) server.close();
  await subscriber.close();
  await pubsub.close();
  await emulator.stop();
}
