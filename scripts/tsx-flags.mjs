import { fileURLToPath } from "node:url";

/**
 * The node flags that run Kassa's TypeScript entry points (server.ts, worker.ts, cli/, bench/) outside
 * Next's bundler: the server-only hook first (scripts/server-only-hook.mjs), then tsx. For code that
 * spawns them: `spawn(process.execPath, [...TSX_FLAGS, "server.ts"])`.
 */
export const TSX_FLAGS = [
  "--import",
  fileURLToPath(new URL("./server-only-hook.mjs", import.meta.url)),
  "--import",
  "tsx",
];
