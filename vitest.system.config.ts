import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * System tests: real Kassa processes (servers, a worker) over the production build, killed and
 * restarted, fuzzed. Run by `npm test` after the build, on PGlite and on PostgreSQL.
 */
export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // The marker of server modules (scripts/module-graph.mjs) throws outside a react-server bundle.
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["tests/system/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    fileParallelism: false,
    // Real processes on a shared 2-core machine: one retry, so a timing hiccup in a SIGKILL test does not
    // block a run. The first attempt's failure and its step log still show in the output.
    retry: 1,
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
