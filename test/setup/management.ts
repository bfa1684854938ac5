import type { gatewayOnEmulators, JsonResponse } from "./gateway.ts";

/**
 * Requests to the management API of a gateway on the emulators, with the organization's admin key (read
 * when each request is made, since tests make the key in `beforeAll`) unless a header says otherwise.
 */
export function managementCalls(setup: ReturnType<typeof gatewayOnEmulators>, adminKey: () => string) {
  const call = (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<JsonResponse> =>
    fetch(`${setup.gateway.baseUrl}${path}`, {
      method,
      headers: {
        "x-api-key": adminKey(),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  /** A path under the organization's `/v1/orgs/{org}`. */
  const orgPath = (rest = "") => `/v1/orgs/${setup.org.organizationId}${rest}`;
  return { call, orgPath };
}
