/** gRPC status 6, ALREADY_EXISTS: what Firestore's `create` throws when the document is there already. */
const ALREADY_EXISTS = 6;
/** gRPC status 3, INVALID_ARGUMENT: Firestore refuses the data itself; sending it again cannot help. */
const INVALID_ARGUMENT = 3;
/** gRPC status 5, NOT_FOUND: what Firestore's `update` throws when the document is missing. */
const NOT_FOUND = 5;

const hasCode = (error: unknown, code: number): boolean =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;

export const isAlreadyExists = (error: unknown): boolean => hasCode(error, ALREADY_EXISTS);

export const isInvalidArgument = (error: unknown): boolean => hasCode(error, INVALID_ARGUMENT);

export const isNotFound = (error: unknown): boolean => hasCode(error, NOT_FOUND);
