import { defineConfig } from "vitest/config";

import { islands } from "./scripts/vite-islands.ts";

export default defineConfig({
  // Route modules render islands, which import the map of browser entries.
  plugins: [islands()],
  test: {
    include: [
      "app/**/*.test.{ts,tsx}",
      "server/**/*.test.ts",
      "scripts/**/*.test.ts",
      "integrations/**/*.test.ts",
      "tests/**/*.test.ts",
    ],
    environment: "node",
    setupFiles: ["./tests/unit-setup.ts"],
    globalSetup: ["./tests/support/postgres-schemas.ts"],
    testTimeout: 20_000,
  },
});
