import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";

/** The vendored .proto files this folder holds, as published (see README.md here). */
export const PROTO_FILES = ["opentelemetry/proto/collector/trace/v1/trace_service.proto", "google/rpc/status.proto"];

/**
 * The OTLP trace service's and google.rpc.Status's definitions, parsed from the vendored .proto files.
 * The gateway loads them from descriptor.json (what this returns, written by write-descriptor.ts), so its
 * bundle needs no file beside it; descriptor.test.ts fails when that file no longer matches the protos.
 */
export function parseProtoFiles(): protobuf.INamespace {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(here, target);
  return root.loadSync(PROTO_FILES).toJSON();
}
