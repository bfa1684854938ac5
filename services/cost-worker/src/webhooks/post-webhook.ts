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

async function readBounded(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    // Whatever is left is not wanted: the connection is released instead of read to the end.
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString("utf8");
}

/**
 * POSTs a signed body to a receiver, bounded in time (connection, answer and excerpt together) and in what
 * it reads. Redirects are not followed: a 3xx is a failed attempt, so a receiver cannot send our signed
 * request elsewhere. Only a 2xx is a success.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<PostOutcome> {
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "usage-ingestion-webhooks/1", ...headers },
      body,
      redirect: "manual",
      signal,
    });
    const excerpt = await readBounded(response, MAX_RESPONSE_BYTES).catch(() => "");
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      statusCode: response.status,
      error: ok ? null : `HTTP ${response.status}`,
      durationMs: elapsed(),
      responseExcerpt: excerpt || null,
    };
  } catch (error) {
    const timedOut = signal.aborted;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = timedOut
      ? `no answer within ${timeoutMs} ms`
      : (cause?.code ?? cause?.message ?? (error as Error).message ?? String(error));
    return { ok: false, statusCode: null, error: reason, durationMs: elapsed(), responseExcerpt: null };
  }
}
