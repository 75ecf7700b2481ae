import "server-only";

/**
 * For system tests only: with KASSA_TEST_CRASH_AT=<name>, the process kills itself with SIGKILL when
 * it reaches the point of that name, so a test can stop it between two steps no timing could hit
 * (tests/system/ltc-payout-kill.test.ts). Without the variable it does nothing.
 */
export function crashPoint(name: string): void {
  if (process.env.KASSA_TEST_CRASH_AT === name) process.kill(process.pid, "SIGKILL");
}
