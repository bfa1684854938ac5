import { Firestore, type Settings } from "@google-cloud/firestore";

/**
 * A Firestore client for a job. The client traces every call through OpenTelemetry unless told not to;
 * no tracer provider is registered here, so each span was built for nothing (about 2% of the worker's CPU
 * in a profile of a backlog drain). Whoever registers one can set FIRESTORE_ENABLE_TRACING=on.
 */
export function firestoreClient(projectId: string | undefined, settings: Settings = {}): Firestore {
  process.env.FIRESTORE_ENABLE_TRACING ??= "off";
  return new Firestore({ ...(projectId ? { projectId } : {}), ...settings });
}
