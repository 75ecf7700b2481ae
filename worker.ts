import { ConfigError } from "@/lib/config";
import { MasterKeyError } from "@/lib/crypto/master-key";
import { DataDirLockedError } from "@/lib/db/data-dir-lock";
import { startBackground } from "@/lib/host/background";
import { bootDatabase } from "@/lib/host/boot";
import { getConfig } from "@/lib/runtime";
import { applyHeapGrowthSetting } from "@/server/heap-growth";
import { quietBrokenPipes } from "@/server/quiet-broken-pipes";

/**
 * `npm run worker`: Kassa's background work (jobs, and the sandbox block timer) without serving
 * HTTP, for deployments on PostgreSQL where app servers run with KASSA_JOBS=off. On the embedded
 * database the server runs the jobs itself (only one process may open it).
 */
async function main(): Promise<void> {
  quietBrokenPipes();
  applyHeapGrowthSetting(process.env);
  const config = getConfig();
  const { handle, lock } = await bootDatabase(config, "worker");
  const background = startBackground(handle, config);
  console.log(
    `Kassa worker running (${config.databaseUrl ? "PostgreSQL" : "embedded PGlite"}, ${config.mode} mode)`,
  );
  let isStopping = false;
  const stop = async (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    console.log(`[worker] ${signal}: finishing jobs in flight`);
    await background.stop();
    await handle.close();
    lock?.release();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error) => {
  const isExpected =
    error instanceof DataDirLockedError || error instanceof MasterKeyError || error instanceof ConfigError;
  console.error(isExpected ? `Kassa worker could not start: ${error.message}` : error);
  process.exit(1);
});
