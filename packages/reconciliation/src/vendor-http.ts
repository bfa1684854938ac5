/**
 * Calls to a vendor's report API: each bounded in time and size, a 429 or 5xx tried again after the
 * vendor's `retry-after` (or a short backoff) a bounded number of times, and the pages of one report
 * bounded. No message ever holds the credential: the request's headers are never repeated.
 */
export interface VendorHttpSettings {
  /** One request, its whole answer included. */
  timeoutMs: number;
  /** Tries after the first, for a 429 or a 5xx. */
  maxRetries: number;
  /** The longest wait honoured; a vendor asking for longer fails the run (tried again next run). */
  maxWaitMs: number;
  /** Pages of one report, past which the run fails rather than read on. */
  maxPages: number;
  /** Bytes of one answer. */
  maxAnswerBytes: number;
}

export const DEFAULT_VENDOR_HTTP: VendorHttpSettings = {
  timeoutMs: 30_000,
  maxRetries: 4,
  maxWaitMs: 60_000,
  maxPages: 100,
  maxAnswerBytes: 8 * 1024 * 1024,
};

export interface VendorHttp {
  settings: VendorHttpSettings;
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
}

export const vendorHttp = (settings: VendorHttpSettings = DEFAULT_VENDOR_HTTP): VendorHttp => ({
  settings,
  fetch: globalThis.fetch,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
});

/** The vendor's answer could not be had or read: the run records it on the connection and tries again later. */
export class VendorAnswerError extends Error {
  override name = "VendorAnswerError";
}

/** `retry-after` in seconds or as an HTTP date, in ms from now; absent or unreadable, null. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

async function boundedText(response: Response, maxBytes: number): Promise<string> {
  const announced = Number(response.headers.get("content-length") ?? "0");
  if (announced > maxBytes) throw new VendorAnswerError(`the answer is over ${maxBytes} bytes`);
  if (!response.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new VendorAnswerError(`the answer is over ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** GETs one page of a report as JSON; `vendor` and the path (never the query or headers) name it in messages. */
export async function getJson(http: VendorHttp, vendor: string, url: URL, headers: Record<string, string>) {
  const { settings } = http;
  const where = `${vendor} ${url.pathname}`;
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await http.fetch(url, { headers, signal: AbortSignal.timeout(settings.timeoutMs) });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      if (attempt < settings.maxRetries) {
        await http.sleep(Math.min(settings.maxWaitMs, 1000 * 2 ** attempt));
        continue;
      }
      throw new VendorAnswerError(
        `${where}: ${timedOut ? `no answer within ${settings.timeoutMs} ms` : "unreachable"}`,
      );
    }
    if (response.status === 429 || response.status >= 500) {
      await response.body?.cancel();
      const asked = retryAfterMs(response.headers.get("retry-after"));
      const wait = asked ?? Math.min(settings.maxWaitMs, 1000 * 2 ** attempt);
      if (attempt >= settings.maxRetries || wait > settings.maxWaitMs) {
        throw new VendorAnswerError(
          `${where}: ${response.status === 429 ? "rate limited" : `answered ${response.status}`} after ${attempt + 1} tries`,
        );
      }
      await http.sleep(wait);
      continue;
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      throw new VendorAnswerError(`${where}: the vendor refused the credential (${response.status})`);
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new VendorAnswerError(`${where}: answered ${response.status}`);
    }
    const text = await boundedText(response, settings.maxAnswerBytes);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new VendorAnswerError(`${where}: the answer is not JSON`);
    }
  }
}

/** A report read page by page: `next` gives the following page's URL from one page, or null at the end. */
export async function allPages<T>(
  http: VendorHttp,
  vendor: string,
  first: URL,
  headers: Record<string, string>,
  read: (page: unknown) => { items: T[]; nextPage: string | null },
  pageUrl: (token: string) => URL,
): Promise<T[]> {
  const items: T[] = [];
  let url: URL | null = first;
  for (let pages = 0; url; pages++) {
    if (pages >= http.settings.maxPages) {
      throw new VendorAnswerError(`${vendor} ${first.pathname}: more than ${http.settings.maxPages} pages`);
    }
    const page = read(await getJson(http, vendor, url, headers));
    items.push(...page.items);
    url = page.nextPage ? pageUrl(page.nextPage) : null;
  }
  return items;
}
