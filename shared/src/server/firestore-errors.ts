/** gRPC status 6, ALREADY_EXISTS: what Firestore's `create` throws when the document is there already. */
const ALREADY_EXISTS = 6;

export const isAlreadyExists = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === ALREADY_EXISTS;
