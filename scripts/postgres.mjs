// Starts a throwaway PostgreSQL server on a loopback port in a temporary directory, for tests and
// benchmarks. Used as a module (startPostgres) or from the shell:
//   node scripts/postgres.mjs start [--port N] [--dir D]   prints the connection URL, keeps running detached
//   node scripts/postgres.mjs stop --dir D
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

function findBinDir() {
  if (process.env.KASSA_PG_BIN) return process.env.KASSA_PG_BIN;
  const base = "/usr/lib/postgresql";
  if (fs.existsSync(base)) {
    const versions = fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, "bin", "initdb")));
    versions.sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(base, versions[0], "bin");
  }
  try {
    return execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
}

export function hasPostgres() {
  const bin = findBinDir();
  return Boolean(bin && fs.existsSync(path.join(bin, "initdb")));
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

// initdb refuses to run as root: run the server's commands as the "postgres" user then.
function run(bin, command, args) {
  const isRoot = process.getuid?.() === 0;
  const file = isRoot ? "runuser" : path.join(bin, command);
  const argv = isRoot ? ["-u", "postgres", "--", path.join(bin, command), ...args] : args;
  const result = spawnSync(file, argv, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} failed:\n${result.stdout}\n${result.stderr}`);
}

export async function startPostgres({ port, dir, durable = false } = {}) {
  const bin = findBinDir();
  if (!bin) throw new Error("PostgreSQL server binaries not found (install the postgresql package)");
  const root = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "kassa-pg-"));
  fs.mkdirSync(root, { recursive: true });
  if (process.getuid?.() === 0) execFileSync("chown", ["-R", "postgres", root]);
  const data = path.join(root, "data");
  const chosenPort = port ?? (await freePort());
  run(bin, "initdb", ["-D", data, "-U", "kassa", "--auth=trust", "-E", "UTF8", "--no-locale"]);
  const options = [
    `-p ${chosenPort}`,
    `-k ${root}`,
    "-c listen_addresses=127.0.0.1",
    "-c max_connections=300",
    "-c shared_buffers=256MB",
    // Tests trade durability for speed; benchmarks keep the defaults (durable: true).
    ...(durable ? [] : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]),
  ].join(" ");
  run(bin, "pg_ctl", [
    "-D",
    data,
    "-l",
    path.join(root, "server.log"),
    "-o",
    options,
    "-w",
    "-t",
    "60",
    "start",
  ]);
  const url = `postgres://kassa@127.0.0.1:${chosenPort}/postgres`;
  return {
    url,
    dir: root,
    stop: () => {
      try {
        run(bin, "pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
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
    const server = await startPostgres({
      port: flag("port") ? Number(flag("port")) : undefined,
      dir: flag("dir"),
    });
    console.log(server.url);
  } else if (command === "stop") {
    const data = path.join(flag("dir"), "data");
    run(findBinDir(), "pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
  } else {
    console.error("usage: node scripts/postgres.mjs start [--port N] [--dir D] | stop --dir D");
    process.exit(64);
  }
}
