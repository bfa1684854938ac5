import { defineConfig } from "vitest/config";

/**
 * Two projects. `unit`: the tests beside the code (shared/, services/, clients/, scripts/), which need no
 * emulator and run in seconds (`npm run test:unit`). `integration`: everything under test/, on the real
 * Pub/Sub and Firestore emulators the global setup starts, and headless Chromium. `npm test` runs both.
 */
/**
 * Tests read the client package from its TypeScript, as its package.json's `@usage-ingestion/source`
 * condition names it; others install the built package, which this condition never reaches.
 */
const conditions = ["@usage-ingestion/source", "node", "development|production"];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // Two cores: the emulators need one of them.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "shared/**/*.test.ts",
            "packages/**/*.test.ts",
            "clients/**/*.test.ts",
            "services/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
          exclude: ["**/node_modules/**", "**/dist/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          globalSetup: ["test/setup/global-setup.ts"],
          setupFiles: ["test/setup/emulator-env.ts"],
        },
      },
    ],
  },
});
