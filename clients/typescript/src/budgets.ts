import type { BudgetStatus, ErrorObject } from "./contract.ts";

/**
 * Which budgets to read: those a call with these values counts towards (a budget whose scope leaves a
 * field open counts every value of it). None given: every budget of the organization.
 */
export interface BudgetFilter {
  customer?: string;
  provider?: string;
  model?: string;
  /** Declared context dimensions and the call's values: `{ feature: "chat" }`. */
  context?: Record<string, string>;
  /** One budget by its id. */
  id?: string;
}

export interface BudgetsAnswer {
  as_of: string;
  budgets: BudgetStatus[];
}

/** `GET /usage/budgets` answered something other than 200; `code` is the service's error code when it sent one. */
export class BudgetsError extends Error {
  override name = "BudgetsError";
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: ErrorObject["code"] | null,
  ) {
    super(message);
  }
}

export interface BudgetsRequest {
  baseUrl: string;
  /** A key of scope `read`. */
  apiKey: string;
  fetch: typeof fetch;
  timeoutMs: number;
}

export function budgetsUrl(baseUrl: string, filter: BudgetFilter): string {
  const params = new URLSearchParams();
  for (const name of ["id", "customer", "provider", "model"] as const) {
    const value = filter[name];
    if (value !== undefined) params.set(name, value);
  }
  for (const [name, value] of Object.entries(filter.context ?? {})) params.set(`context.${name}`, value);
  const query = params.toString();
  return `${baseUrl}/usage/budgets${query ? `?${query}` : ""}`;
}

/**
 * Reads the budgets the filter names, with their spent now: one request, bounded by `timeoutMs`, never
 * retried (a check before a call should not wait long; the caller decides what to do without an answer).
 */
export async function readBudgets(request: BudgetsRequest, filter: BudgetFilter = {}): Promise<BudgetsAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), request.timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await request.fetch(budgetsUrl(request.baseUrl, filter), {
      headers: { "X-Api-Key": request.apiKey },
      signal: controller.signal,
    });
    text = await response.text();
  } catch (error) {
    const why = controller.signal.aborted
      ? `no answer within ${request.timeoutMs} ms`
      : `network error: ${error instanceof Error ? error.message : String(error)}`;
    throw new BudgetsError(why, null, null);
  } finally {
    clearTimeout(timer);
  }
  let body: { error?: ErrorObject } & Partial<BudgetsAnswer> = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    // Not JSON (a proxy's page): the status says what happened.
  }
  if (response.status !== 200 || !Array.isArray(body.budgets)) {
    const error = body.error;
    const message = error ? `HTTP ${response.status} ${error.code}: ${error.message}` : `HTTP ${response.status}`;
    throw new BudgetsError(message, response.status, error?.code ?? null);
  }
  return { as_of: String(body.as_of), budgets: body.budgets };
}
