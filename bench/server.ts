import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { TSX_FLAGS } from "../scripts/tsx-flags.mjs";

const root = path.resolve(import.meta.dirname, "..");

/** Starts `entry` (server.ts, or the bench baseline) in production mode on loopback and waits until it answers ping. */
export async function startServer(
  port: number,
  env: Record<string, string>,
  entry = "server.ts",
): Promise<ChildProcess> {
  // KASSA_BENCH_CPU_PROF=<dir>: each server writes a V8 CPU profile there when it stops.
  const profile = process.env.KASSA_BENCH_CPU_PROF;
  const profileFlags = profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(process.execPath, [...profileFlags, ...TSX_FLAGS, entry], {
    cwd: root,
    env: { ...process.env, ...env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/v2/ping`)).ok) return child;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill("SIGKILL");
  throw new Error(`${entry} did not start`);
}

/** Stops a server the way an operator would (SIGTERM) and waits until it has exited. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}
