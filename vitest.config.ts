import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "shared/**/*.test.ts",
      "clients/**/*.test.ts",
      "services/**/*.test.ts",
      "scripts/**/*.test.ts",
      "test/**/*.test.ts",
    ],
    globalSetup: ["test/setup/global-setup.ts"],
    setupFiles: ["test/setup/emulator-env.ts"],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // Two cores: the emulators need one of them.
    maxWorkers: 2,
  },
});
