import { CANARY_HELP, CanaryRefusal, parseCanaryArgs } from "./args.ts";

/** `npm run canary -- --project P --topic T`: our transports against the real Google endpoints (args.ts). */
try {
  const command = parseCanaryArgs(process.argv.slice(2), process.env);
  if (command.help) {
    console.log(CANARY_HELP);
  } else {
    // The clients are loaded only once the arguments and the environment passed.
    const { runCanary } = await import("./checks.ts");
    process.exitCode = (await runCanary(command.args, (line) => console.log(line))) ? 0 : 1;
  }
} catch (error) {
  if (!(error instanceof CanaryRefusal)) throw error;
  console.error(`canary: ${error.message}`);
  process.exitCode = 2;
}
