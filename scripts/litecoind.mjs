// Starts Debian's litecoind (a Bitcoin Core 0.21 fork with the same RPC) in regtest, on a free
// loopback port with its own data directory, for tests, benchmarks and the devnet. Never without
// -datadir: litecoind would write ~/.litecoin. Used as a module (startLitecoind) or from the shell:
//   node scripts/litecoind.mjs start [--port N] [--dir D]   prints the RPC URL, keeps running detached
//   node scripts/litecoind.mjs stop --dir D
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const LITECOIND = process.env.KASSA_LITECOIND_BIN ?? "/usr/bin/litecoind";

export function isLitecoindInstalled() {
  return fs.existsSync(LITECOIND);
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

/** One JSON-RPC call with basic auth; resolves with `result`, rejects with the node's error message. */
export async function litecoinRpc(node, method, params = [], timeoutMs = 30_000) {
  const response = await fetch(
    `http://127.0.0.1:${node.port}${node.wallet ? `/wallet/${node.wallet}` : ""}`,
    {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Basic ${Buffer.from(`${node.user}:${node.password}`).toString("base64")}`,
      },
      body: JSON.stringify({ jsonrpc: "1.0", id: 1, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    },
  );
  const text = await response.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${method}: HTTP ${response.status} ${text.slice(0, 200)}`);
  }
  if (body.error) throw new Error(`${method}: ${body.error.message} (code ${body.error.code})`);
  return body.result;
}

/** Polls until the node answers getblockchaininfo, or the process died, or the deadline passed. */
async function waitUntilReady(node, child, logFile, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      await litecoinRpc({ ...node, wallet: undefined }, "getblockchaininfo", [], 1_000);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").slice(-2_000) : "";
  throw new Error(`litecoind did not answer on port ${node.port}:\n${log}`);
}

/**
 * Starts litecoind in regtest (segwit from block 0; MWEB's deployment pushed out of reach, else
 * mining stops at height 432; replace-by-fee allowed, which Litecoin's node refuses by default).
 * The node's own wallet "customer" is created: tests and the devnet pay from it as a customer
 * would; Kassa never uses it. `dir` kept means the chain survives a restart on the same port.
 */
export async function startLitecoind({ port, dir, detached = false, chain = "regtest" } = {}) {
  const root = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "kassa-litecoind-"));
  fs.mkdirSync(root, { recursive: true });
  const chosenPort = port ?? (await freePort());
  const p2pPort = await freePort();
  const user = "kassa";
  const passwordFile = path.join(root, "rpc-password");
  const password = fs.existsSync(passwordFile)
    ? fs.readFileSync(passwordFile, "utf8")
    : crypto.randomBytes(12).toString("hex");
  fs.writeFileSync(passwordFile, password, { mode: 0o600 });
  const logFile = path.join(root, "litecoind.log");
  const log = fs.openSync(logFile, "a");
  // "main" (tests of a mainnet node's refusal only): no peers, so it stays at its genesis block.
  const chainArgs = chain === "main" ? ["-connect=0"] : ["-regtest", "-vbparams=mweb:9999999999:9999999999"];
  const argv = [
    ...chainArgs,
    `-datadir=${root}`,
    "-txindex",
    "-fallbackfee=0.0002",
    "-mempoolreplacement=1",
    "-server",
    "-listen=0",
    `-port=${p2pPort}`,
    "-rpcbind=127.0.0.1",
    "-rpcallowip=127.0.0.1",
    `-rpcport=${chosenPort}`,
    // Idle keep-alive connections stay open for 10 minutes (30 s by default): a client's pooled
    // connection closed by the node mid-request fails with "other side closed".
    "-rpcservertimeout=600",
    `-rpcuser=${user}`,
    `-rpcpassword=${password}`,
    "-printtoconsole",
    "-debuglogfile=0",
  ];
  const child = spawn(LITECOIND, argv, { stdio: ["ignore", log, log], detached });
  fs.closeSync(log);
  const node = { port: chosenPort, user, password, wallet: chain === "main" ? undefined : "customer" };
  await waitUntilReady(node, child, logFile, 30_000);
  const wallets =
    chain === "main" ? ["customer"] : await litecoinRpc({ ...node, wallet: undefined }, "listwallets");
  if (!wallets.includes("customer")) {
    try {
      await litecoinRpc({ ...node, wallet: undefined }, "loadwallet", ["customer"]);
    } catch {
      await litecoinRpc({ ...node, wallet: undefined }, "createwallet", ["customer"]);
    }
  }
  fs.writeFileSync(path.join(root, "litecoind.pid"), String(child.pid));
  if (detached) child.unref();
  return {
    ...node,
    url: `http://${user}:${password}@127.0.0.1:${chosenPort}`,
    dir: root,
    pid: child.pid,
    /**
     * Waits for the process to end: SIGTERM when its data directory is kept (litecoind flushes, so a
     * restart finds its chain), SIGKILL when the directory is thrown away (a clean shutdown takes seconds).
     */
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill(dir ? "SIGTERM" : "SIGKILL");
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
    const node = await startLitecoind({
      port: flag("port") ? Number(flag("port")) : undefined,
      dir: flag("dir") ?? fs.mkdtempSync(path.join(os.tmpdir(), "kassa-litecoind-")),
      detached: true,
    });
    console.log(node.url);
    process.exit(0);
  } else if (command === "stop" && flag("dir")) {
    const pid = Number(fs.readFileSync(path.join(flag("dir"), "litecoind.pid"), "utf8"));
    process.kill(pid, "SIGTERM");
  } else {
    console.error("usage: node scripts/litecoind.mjs start [--port N] [--dir D] | stop --dir D");
    process.exit(64);
  }
}
