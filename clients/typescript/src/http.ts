import type { ErrorObject, FieldError, TransactionResult } from "./contract.ts";
import type { TrackedTransaction } from "./types.ts";

/** One answer of `POST /usage/transactions`, or the network error that stood in for it. */
export type Answer =
  | { kind: "network"; error: string }
  | { kind: "http"; status: number; results?: TransactionResult[]; details?: FieldError[]; error: string };

export interface PostOptions {
  url: string;
  apiKey: string;
  fetch: typeof fetch;
  timeoutMs: number;
}

/** The fields read from any answer: 202/207 bodies, the 500 body, and the error envelope. */
interface AnswerBody {
  message?: string;
  results?: TransactionResult[];
  error?: ErrorObject;
}

/** Posts one bulk request; never throws: a timeout or a dropped connection is a `network` answer. */
export async function postBulk(options: PostOptions, transactions: TrackedTransaction[]): Promise<Answer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const response = await options.fetch(options.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Api-Key": options.apiKey },
      body: JSON.stringify({ transactions }),
      signal: controller.signal,
    });
    const text = await response.text();
    let body: AnswerBody = {};
    try {
      body = text ? (JSON.parse(text) as AnswerBody) : {};
    } catch {
      // A proxy's HTML error page: the status decides what happens next.
    }
    return {
      kind: "http",
      status: response.status,
      ...(Array.isArray(body.results) ? { results: body.results } : {}),
      ...(Array.isArray(body.error?.details) ? { details: body.error.details } : {}),
      error: describe(response.status, body),
    };
  } catch (error) {
    const aborted = controller.signal.aborted;
    return {
      kind: "network",
      error: aborted
        ? `no answer within ${options.timeoutMs} ms`
        : `network error: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    clearTimeout(timer);
  }
}

function describe(status: number, body: AnswerBody): string {
  const error = body.error;
  if (!error) return body.message ? `HTTP ${status}: ${body.message}` : `HTTP ${status}`;
  const details = error.details?.map((d) => `${d.field} (${d.code}): ${d.message}`).join("; ");
  return `HTTP ${status} ${error.code}: ${error.message}${details ? ` [${details}]` : ""}`;
}
