import "server-only";

import { isSessionCookieSecure } from "@/lib/auth/auth-options";
import { type Config, ConfigError } from "@/lib/config";
import { MasterKeyError } from "@/lib/crypto/master-key";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { type DatabaseHandle, registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { type DataDirLock, DataDirLockedError } from "@/lib/db/data-dir-lock";
import { reopenCheckoutHub, stopCheckoutHub } from "@/lib/notify/checkout-hub-slot";
import { getConfig } from "@/lib/runtime";
import { seedDemoMerchant } from "@/lib/seed/seed-demo";
import { type Background, startBackground } from "./background";
import { bootDatabase } from "./boot";
import { answerCliBridge } from "./cli-bridge";
import type { EngineMessage, EngineRefusal, EngineStarted } from "./engine-protocol";

export type EngineAnswer = { status: number; body: EngineStarted | EngineRefusal | unknown };

type Running = {
  handle: DatabaseHandle;
  box: SecretBox;
  lock?: DataDirLock;
  background?: Background;
  /** The background's stop, begun when the server started draining. */
  stopping?: Promise<void>;
  isSandbox: boolean;
  evm: Config["evm"];
  utxo: Config["utxo"];
};

/**
 * The server process's engine: opened once by "start" and closed by "stop". Module state, not
 * globalThis: this module is only ever loaded inside Next.js's compiled route graph, the same one
 * that serves every route handler, so there is exactly one of it.
 */
let running: Running | undefined;

const isRefusal = (error: unknown) =>
  error instanceof DataDirLockedError || error instanceof MasterKeyError || error instanceof ConfigError;

async function start(): Promise<EngineAnswer> {
  if (running) return { status: 409, body: { error: "The engine is already running.", code: "running" } };
  let config: ReturnType<typeof getConfig>;
  let booted: Awaited<ReturnType<typeof bootDatabase>>;
  try {
    config = getConfig();
    booted = await bootDatabase(config, "server");
  } catch (error) {
    if (!isRefusal(error)) throw error;
    const refusal: EngineRefusal = { error: (error as Error).message, code: "cannot_start" };
    return { status: 503, body: refusal };
  }
  const { handle, box, lock } = booted;
  registerDatabase(handle);
  const demo = config.seedDemo ? await seedDemoMerchant(handle.db, box, config.dataDir) : undefined;
  reopenCheckoutHub();
  const background = config.runJobs ? startBackground(handle, config) : undefined;
  running = {
    handle,
    box,
    lock,
    background,
    isSandbox: config.isSandbox,
    evm: config.evm,
    utxo: config.utxo,
  };
  const started: EngineStarted = {
    mode: config.mode,
    database: config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${config.dataDir}`,
    jobs: background !== undefined,
    bodyLimitBytes: config.bodyLimitBytes,
    apiFastPath: config.apiFastPath,
    shutdownGraceSeconds: config.shutdownGraceSeconds,
    isHttpsOnly: isSessionCookieSecure(),
    demo,
  };
  return { status: 200, body: started };
}

/** The server stopped listening: streams end, jobs finish (none is claimed), requests drain. */
async function drain(): Promise<EngineAnswer> {
  if (running) running.stopping ??= running.background?.stop();
  await stopCheckoutHub();
  return { status: 200, body: { draining: running !== undefined } };
}

async function stop(): Promise<EngineAnswer> {
  const engine = running;
  running = undefined;
  if (engine) {
    await (engine.stopping ?? engine.background?.stop());
    await stopCheckoutHub();
    unregisterDatabase();
    await engine.handle.close();
    engine.lock?.release();
  }
  return { status: 200, body: { stopped: engine !== undefined } };
}

const notFound: EngineAnswer = { status: 404, body: { error: "Not found", code: "not_found" } };

/** Carries out one message from the server (lib/host/engine-protocol.ts). */
export async function runEngineAction(message: EngineMessage): Promise<EngineAnswer> {
  switch (message.action) {
    case "start":
      return start();
    case "listening":
      running?.lock?.update({ port: message.port });
      return { status: 200, body: {} };
    case "drain":
      return drain();
    case "stop":
      return stop();
    case "cli":
      if (!running?.lock) return notFound;
      return answerCliBridge(message, {
        db: running.handle.db,
        box: running.box,
        isSandbox: running.isSandbox,
        evm: running.evm,
        utxo: running.utxo,
        token: running.lock.info.token,
      });
    default:
      return notFound;
  }
}
