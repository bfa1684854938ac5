import { writeConsoleBundle } from "./lib/console-bundle.ts";

/** `npm run console:build`: writes the console's bundle from its sources (services/gateway/console/). */
await writeConsoleBundle();
