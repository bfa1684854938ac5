import { type Agent, request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";
import { NON_PUBLIC_NETWORKS } from "./webhook-documents.ts";

/** What one POST to a receiver came to: its status (or the error when none came), time taken, a bounded excerpt. */
export interface PostOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseExcerpt: string | null;
}

/** At most this much of a receiver's answer is read (and kept on the attempt); the rest is not downloaded. */
export const MAX_RESPONSE_BYTES = 1024;

/**
 * Which addresses a POST may connect to: `public` only (on Google Cloud), or `any`, for the local stack's
 * receivers on this machine. Checked on the address the connection is made to, after the name is resolved
 * (request-filtering-agent: any address not unicast, and NON_PUBLIC_NETWORKS), so a receiver's name that
 * resolves (or is re-pointed, between its check and the POST) to a private, loopback, link-local (the
 * metadata server), reserved or multicast address is refused.
 */
export type ReceiverAddresses = "public" | "any";

/** One agent per scheme and policy, made once; no keep-alive (a receiver is posted to rarely). */
const agents = new Map<string, Agent>();
function agentFor(protocol: string, addresses: ReceiverAddresses): Agent {
  const key = `${protocol}${addresses}`;
  let agent = agents.get(key);
  if (!agent) {
    const options =
      addresses === "any"
        ? { keepAlive: false, allowPrivateIPAddress: true }
        : { keepAlive: false, allowPrivateIPAddress: false, denyIPAddressList: [...NON_PUBLIC_NETWORKS] };
    agent = protocol === "https:" ? new RequestFilteringHttpsAgent(options) : new RequestFilteringHttpAgent(options);
    agents.set(key, agent);
  }
  return agent;
}

/** The first `maxBytes` of an answer; the rest is not read: the connection is closed instead. */
async function readBounded(response: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).byteLength;
      if (size >= maxBytes) break;
    }
  } finally {
    response.destroy();
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString("utf8");
}

/** Sends the request and resolves with the answer's head, or rejects (refused address, network, abort). */
function send(
  url: URL,
  body: string,
  headers: Record<string, string>,
  addresses: ReceiverAddresses,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, {
      method: "POST",
      headers: { "content-length": Buffer.byteLength(body), ...headers },
      agent: agentFor(url.protocol, addresses),
      signal,
    });
    request.once("response", resolve);
    request.once("error", reject);
    request.end(body);
  });
}

/** What an error that stopped a POST says, as an attempt records it. */
function reasonOf(error: unknown): string {
  const failure = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  // The agent's refusal of an address: "DNS lookup 10.0.0.1(family:4, host:...) is not allowed. Because, ...".
  const refused = failure.message?.match(/^DNS lookup (\S+?)\(.* is not allowed/);
  if (refused)
    return `refused: the receiver's address ${refused[1]} is not public (private, loopback, link-local or reserved)`;
  return failure.code ?? failure.cause?.code ?? failure.message ?? String(error);
}

/**
 * POSTs a signed body to a receiver, bounded in time (connection, answer and excerpt together) and in what
 * it reads. Redirects are not followed: a 3xx is a failed attempt, so a receiver cannot send our signed
 * request elsewhere. Only a 2xx is a success. The connection goes only to an address `addresses` allows.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  addresses: ReceiverAddresses = "public",
): Promise<PostOutcome> {
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await send(
      new URL(url),
      body,
      { "content-type": "application/json", "user-agent": "usage-ingestion-webhooks/1", ...headers },
      addresses,
      signal,
    );
    const excerpt = await readBounded(response, MAX_RESPONSE_BYTES).catch(() => "");
    const status = response.statusCode ?? 0;
    const ok = status >= 200 && status < 300;
    return {
      ok,
      statusCode: status,
      error: ok ? null : `HTTP ${status}`,
      durationMs: elapsed(),
      responseExcerpt: excerpt || null,
    };
  } catch (error) {
    const reason = signal.aborted ? `no answer within ${timeoutMs} ms` : reasonOf(error);
    return { ok: false, statusCode: null, error: reason, durationMs: elapsed(), responseExcerpt: null };
  }
}
