import { configDefaults, defineConfig } from "vitest/config";

import { islands } from "./scripts/vite-islands.ts";

/**
 * The deployment files are checked by the tools that read them in production, which
 * scripts/ensure-docker.ts installs; so that check runs with the image tests (test:image),
 * after that script, not with the unit tests, which start before it has run.
 */
const deployTools = "tests/image/compose.test.ts";

export default defineConfig({
  // Route modules render islands, which import the map of browser entries.
  plugins: [islands()],
  test: {
    environment: "node",
    setupFiles: ["./tests/unit-setup.ts"],
    testTimeout: 20_000,
    // Vitest's default leaves one core idle; on CI's two, every core: 90 s -> 62 s alone.
    maxWorkers: "100%",
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          // Only these tests use PostgreSQL.
          globalSetup: ["./tests/support/postgres-schemas.ts"],
          include: [
            "app/**/*.test.{ts,tsx}",
            "server/**/*.test.ts",
            "scripts/**/*.test.ts",
            "integrations/**/*.test.ts",
            "tests/**/*.test.ts",
          ],
          exclude: [...configDefaults.exclude, deployTools],
        },
      },
      { extends: true, test: { name: "deploy", include: [deployTools] } },
    ],
  },
});
