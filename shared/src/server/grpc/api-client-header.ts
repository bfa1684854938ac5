import { version as gaxVersion } from "google-gax";

/**
 * The `x-goog-api-client` header a generated Google client sends with every call, for our own calls on
 * behalf of `library` (`gccl/<version>` of @google-cloud/pubsub or @google-cloud/firestore): Google's
 * front ends count calls and tell client versions apart by it. Built once at start-up.
 */
export const apiClientHeader = (library: string): Record<string, string> => ({
  "x-goog-api-client": `gl-node/${process.versions.node} gax/${gaxVersion} ${library}`,
});
