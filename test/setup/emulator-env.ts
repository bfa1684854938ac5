import { inject } from "vitest";

// Every test process talks to the emulators the global setup started, never to real Google Cloud.
Object.assign(process.env, inject("emulatorEnv"));
