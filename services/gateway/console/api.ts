/**
 * The console's requests: same origin, the session cookie, and on every change the CSRF token `GET
 * /v1/me` answered (the browser adds `Origin` itself). Errors arrive in the API's envelope and are thrown
 * as ApiError with its code, message and field details.
 */
export interface ErrorDetail {
  field?: string;
  code?: string;
  message?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
  }

  /** The message with each field's complaint, as one line a person can act on. */
  describe(): string {
    const fields = this.details.map((detail) => `${detail.field ?? "body"}: ${detail.message ?? detail.code ?? ""}`);
    return fields.length > 0 ? `${this.message} (${fields.join("; ")})` : this.message;
  }
}

let csrfToken = "";
let onSignedOut: () => void = () => {};

export function useSession(token: string, signedOut: () => void) {
  csrfToken = token;
  onSignedOut = signedOut;
}

async function errorOf(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string; details?: ErrorDetail[] } };
    const error = body.error ?? {};
    return new ApiError(response.status, error.code ?? "error", error.message ?? response.statusText, error.details);
  } catch {
    return new ApiError(response.status, "error", `${response.status} ${response.statusText}`);
  }
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
}

/** The answer itself, for what reads headers or text (CSV); throws ApiError on a status of 400 or more. */
export async function send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  if (method !== "GET") headers["X-CSRF-Token"] = csrfToken;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    credentials: "same-origin",
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  if (response.status === 401) onSignedOut();
  if (!response.ok) throw await errorOf(response);
  return response;
}

/** JSON in, JSON out (undefined for 204). */
export async function call<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(method, path, options);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

export const get = <T>(path: string) => call<T>("GET", path);

/** `/v1/orgs/{org}` and what follows, the organization's id encoded. */
export const orgPath = (org: string, rest = "") => `/v1/orgs/${encodeURIComponent(org)}${rest}`;

/** A path with its query, leaving out empty values. */
export function withQuery(path: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, entry] of Object.entries(query)) if (entry) params.set(name, entry);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
