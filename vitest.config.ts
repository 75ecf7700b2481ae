import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // The marker of server modules (scripts/module-graph.mjs) throws outside a react-server bundle.
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts", "tests/chain/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/support/database-template.ts"],
    setupFiles: ["tests/support/fresh-file.ts"],
    pool: "forks",
    // Files share a worker process; tests/support/fresh-file.ts gives each fresh Kassa modules and
    // the worker's starting environment.
    isolate: false,
    // Two files at a time on two cores: much of a file's time is waiting (on anvil, litecoind,
    // PostgreSQL, timers), and vitest's default on two cores is one.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
