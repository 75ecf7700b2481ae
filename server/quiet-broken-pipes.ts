import "server-only";

/**
 * When whoever reads this process's output goes away (a supervisor restarted, a terminal closed),
 * writes to stdout and stderr fail with EPIPE. Without a listener each failure is an uncaught
 * exception, which Next.js's handler logs to the same closed pipe, which fails again: the process
 * spins at 100 % CPU instead of serving. With this, log lines are dropped and serving goes on.
 */
export function quietBrokenPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", () => {
      // Nowhere left to report it: the output is gone, the work is not.
    });
  }
}
