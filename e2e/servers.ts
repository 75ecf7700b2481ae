import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import { e2eServers } from "../playwright.config";
import { TSX_FLAGS } from "../scripts/tsx-flags.mjs";
import { waitUntil } from "../tests/support/wait";

/**
 * Playwright's global setup: starts the e2e servers (playwright.config.ts) all at once, each on an
 * emptied data directory, the way `npm start` runs Kassa, and waits until every one answers. Its
 * teardown stops them with SIGTERM, as an orchestrator would.
 */
export default async function startServers(): Promise<() => Promise<void>> {
  const started: KassaServer[] = [];
  const stopAll = () => Promise.all(started.map((server) => server.stop())).then(() => undefined);
  try {
    await Promise.all(
      e2eServers.map(async (server) => {
        started.push(await startKassaServer(server));
      }),
    );
  } catch (error) {
    await stopAll();
    throw error;
  }
  return stopAll;
}

export type KassaServer = { stop: () => Promise<void> };

/**
 * One production server (server.ts) on an emptied data directory, answering on `port` when this
 * resolves; `stop` sends SIGTERM and waits for it to exit. Its output is printed with its port, so a
 * failure shows what the server said.
 */
export async function startKassaServer(input: {
  port: number;
  dataDir: string;
  env: Record<string, string>;
}): Promise<KassaServer> {
  const { port, dataDir, env } = input;
  const ping = `http://127.0.0.1:${port}/api/v2/ping`;
  if (await answers(ping)) throw new Error(`port ${port} is taken: something already answers ${ping}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const child = spawn(process.execPath, [...TSX_FLAGS, "server.ts"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const stream of [child.stdout!, child.stderr!])
    stream.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) if (line) console.log(`[server :${port}] ${line}`);
    });
  const stop = () => stopChild(child);
  try {
    const outcome = await waitUntil(
      async () => (child.exitCode !== null ? "exited" : (await answers(ping)) && "ready"),
      { what: `the e2e server answers on port ${port}`, timeoutMs: 180_000, intervalMs: 200 },
    );
    if (outcome === "exited") throw new Error(`the e2e server on port ${port} exited (${child.exitCode})`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

function answers(url: string): Promise<boolean> {
  return fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    (response) => response.ok,
    () => false,
  );
}
