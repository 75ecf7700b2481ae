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
    // No retry: a system test that fails once has found something (a wait on a guess, a race); its
    // step log says where. Tests wait on conditions with deadlines (tests/support/wait.ts).
    retry: 0,
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
