/** gRPC status 6, ALREADY_EXISTS: what Firestore's `create` throws when the document is there already. */
const ALREADY_EXISTS = 6;
/** gRPC status 3, INVALID_ARGUMENT: Firestore refuses the data itself; sending it again cannot help. */
const INVALID_ARGUMENT = 3;

export const isAlreadyExists = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === ALREADY_EXISTS;

export const isInvalidArgument = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === INVALID_ARGUMENT;
