import "server-only";

import type { DemoCredentials } from "@/lib/seed/seed-demo";

/**
 * What the custom server (server.ts, outside Next's bundle) asks of the engine it hosts, and what it
 * gets back. The engine runs inside Next.js's compiled route graph (app/internal/engine/route.ts),
 * so that one copy of lib/ serves requests, runs the jobs and holds the database; the server only
 * listens, dispatches and drains. The server imports these types, never code, from lib/.
 */
export type EngineMessage =
  | { action: "start" }
  | { action: "listening"; port: number }
  /**
   * The server stops taking requests: end the checkout streams and refuse new ones, and let the jobs
   * finish (none is claimed any more), while the requests in flight drain. "stop" follows.
   */
  | { action: "drain" }
  | { action: "stop" }
  /** A command from the ops CLI (cli/index.ts), with the token it read from the lock file. */
  | { action: "cli"; token: string; body: string };

export type EngineStarted = {
  mode: "sandbox" | "production";
  database: string;
  jobs: boolean;
  bodyLimitBytes: number;
  apiFastPath: boolean;
  /** How long the server waits for requests in flight to finish when it stops (KASSA_SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceSeconds: number;
  /** The site is https only (its session cookie is Secure): every answer carries Strict-Transport-Security. */
  isHttpsOnly: boolean;
  demo?: DemoCredentials;
};

/** A refusal to start the operator can act on (the data directory is locked, a setting is invalid). */
export type EngineRefusal = { error: string; code: "cannot_start" };
