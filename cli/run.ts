import type { Config } from "@/lib/config";
import { readLiveLock } from "@/lib/db/data-dir-lock";
import { KassaError } from "@/lib/errors";
import { type CliCommand, type CliOutput, sendToServer } from "./command";

/**
 * Carries out one CLI command where it must run: against PostgreSQL (DATABASE_URL) directly; on the
 * embedded database, through the Kassa server holding the data directory if one does, otherwise by
 * opening the directory here, under the same lock a server takes. cli/index.ts is the process
 * around it; the system tests call it in their own process for setup (tests/system/harness.ts).
 */
export async function runCli(command: CliCommand, config: Config): Promise<CliOutput> {
  const holder = config.databaseUrl ? undefined : readLiveLock(config.dataDir);
  if (holder?.port && holder.role === "server") return sendToServer(holder.port, holder.token, command);
  return direct(command, config);
}

/** Without a running server: the CLI opens the database itself, and so loads the engine. */
async function direct(command: CliCommand, config: Config): Promise<CliOutput> {
  const [{ runCliCommand }, { bootDatabase }] = await Promise.all([
    import("@/lib/cli/commands"),
    import("@/lib/host/boot"),
  ]);
  const { handle, box, lock } = await bootDatabase(config, "cli");
  try {
    const result = await runCliCommand(command, {
      db: handle.db,
      box,
      isSandbox: config.isSandbox,
      evm: config.evm,
      utxo: config.utxo,
    });
    return { ok: true, result };
  } catch (error) {
    if (error instanceof KassaError) {
      return { ok: false, error: { code: error.code, message: error.message, fields: error.fields } };
    }
    throw error;
  } finally {
    await handle.close();
    lock?.release();
  }
}
