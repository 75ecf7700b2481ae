import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createInstallation,
  driver,
  type Installation,
  type KassaProcess,
  kill,
  startKassa,
} from "./harness";

// A supervisor that stops reading Kassa's output must not take the server down with it: every log
// line then fails with EPIPE, and unhandled, each failure was logged again to the same closed pipe,
// a loop that starved the event loop. Found with an orphaned server spinning at 100 % CPU.
/** User plus system CPU time of a process, in clock ticks (Linux). */
function cpuTicks(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

describe(`a closed log pipe on ${driver}`, () => {
  let installation: Installation;
  let server: KassaProcess;

  beforeAll(async () => {
    installation = await createInstallation();
    server = await startKassa(installation);
  });
  afterAll(async () => {
    await kill(server, "SIGKILL");
    await installation.cleanup();
  });

  it("keeps the server answering after its stdout and stderr readers are gone", async () => {
    server.process.stdout!.destroy();
    server.process.stderr!.destroy();
    // next-auth warns (console.warn) on its first request without NEXTAUTH_URL: a write to the closed pipe.
    for (let i = 0; i < 3; i++) {
      const csrf = await fetch(`${server.base}/api/auth/csrf`, { signal: AbortSignal.timeout(10_000) });
      expect(csrf.status).toBe(200);
    }
    for (let i = 0; i < 10; i++) {
      const ping = await fetch(`${server.base}/api/v2/ping`, { signal: AbortSignal.timeout(2_000) });
      expect(ping.status).toBe(200);
    }
    // Still alive, and idle when idle: a spinning process would use about all of the 2 s measured.
    // (A measuring window, not a wait for something to happen: idleness has no event to await.)
    const before = cpuTicks(server.process.pid!);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(cpuTicks(server.process.pid!) - before).toBeLessThan(100); // ticks of 10 ms: under half
    expect(server.process.exitCode).toBeNull();
  });
});
