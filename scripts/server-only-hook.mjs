/**
 * `import "server-only"` marks the engine's modules as server code: Next.js refuses to bundle one
 * into a client component. Outside Next's bundler (server.ts, worker.ts, the CLI, the benchmarks,
 * run through tsx) the package throws unless the `react-server` condition is set, and setting that
 * condition for the whole process would also hand React its server build, which Next's renderer
 * cannot use. So this registers a resolve hook that adds the condition for that one package:
 *
 *   node --import ./scripts/server-only-hook.mjs --import tsx server.ts
 */
import { register } from "node:module";

register("./server-only-resolve.mjs", import.meta.url);
