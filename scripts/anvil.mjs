// Starts a local Ethereum node (anvil, from the npm package @foundry-rs/anvil-linux-amd64) on a free
// loopback port, for tests, benchmarks and the devnet. Used as a module (startAnvil) or from the shell:
//   node scripts/anvil.mjs start [--port N] [--dir D] [--state FILE]   prints the RPC URL, keeps running detached
//   node scripts/anvil.mjs stop --dir D
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const ANVIL_CHAIN_ID = 31337;

export function anvilBinary() {
  if (process.env.KASSA_ANVIL_BIN) return process.env.KASSA_ANVIL_BIN;
  const require = createRequire(import.meta.url);
  const pkg = path.dirname(require.resolve("@foundry-rs/anvil-linux-amd64/package.json"));
  return path.join(pkg, "bin", "anvil");
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function answersRpc(url) {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** Polls until the node answers eth_chainId, or the process died, or the deadline passed. */
async function waitUntilReady(url, child, logFile, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await answersRpc(url)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").slice(-2_000) : "";
  throw new Error(`anvil did not answer at ${url}:\n${log}`);
}

/**
 * Starts anvil. `state` is a file anvil loads at start (when it exists) and writes on a graceful
 * stop, so a restarted node keeps its chain. `detached` leaves it running after this process exits.
 */
export async function startAnvil({
  port,
  dir,
  state,
  chainId = ANVIL_CHAIN_ID,
  detached = false,
  args = [],
} = {}) {
  const root = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "kassa-anvil-"));
  fs.mkdirSync(root, { recursive: true });
  const chosenPort = port ?? (await freePort());
  const logFile = path.join(root, "anvil.log");
  const log = fs.openSync(logFile, "a");
  const argv = [
    "--host",
    "127.0.0.1",
    "--port",
    String(chosenPort),
    "--chain-id",
    String(chainId),
    ...(state ? ["--state", state] : []),
    ...args,
  ];
  const child = spawn(anvilBinary(), argv, { stdio: ["ignore", log, log], detached });
  fs.closeSync(log);
  const url = `http://127.0.0.1:${chosenPort}`;
  await waitUntilReady(url, child, logFile, 30_000);
  fs.writeFileSync(path.join(root, "anvil.pid"), String(child.pid));
  if (detached) child.unref();
  return {
    url,
    port: chosenPort,
    dir: root,
    pid: child.pid,
    /** SIGTERM, so anvil writes its --state file; waits for the process to end. */
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      if (!dir) fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command] = process.argv.slice(2);
  const flag = (name) => {
    const index = process.argv.indexOf(`--${name}`);
    return index > 0 ? process.argv[index + 1] : undefined;
  };
  if (command === "start") {
    const node = await startAnvil({
      port: flag("port") ? Number(flag("port")) : undefined,
      dir: flag("dir") ?? fs.mkdtempSync(path.join(os.tmpdir(), "kassa-anvil-")),
      state: flag("state"),
      detached: true,
    });
    console.log(node.url);
    process.exit(0);
  } else if (command === "stop" && flag("dir")) {
    const pid = Number(fs.readFileSync(path.join(flag("dir"), "anvil.pid"), "utf8"));
    process.kill(pid, "SIGTERM");
  } else {
    console.error("usage: node scripts/anvil.mjs start [--port N] [--dir D] [--state FILE] | stop --dir D");
    process.exit(64);
  }
}
