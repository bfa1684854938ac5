import { writeFileSync } from "node:fs";
import { parseProtoFiles } from "./definitions.ts";

/** `npx tsx services/gateway/src/otlp/proto/write-descriptor.ts`: after updating the vendored .proto files. */
writeFileSync(new URL("descriptor.json", import.meta.url), `${JSON.stringify(parseProtoFiles(), null, 2)}\n`);
