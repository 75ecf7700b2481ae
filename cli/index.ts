import { ConfigError } from "@/lib/config";
import { MasterKeyError } from "@/lib/crypto/master-key";
import { DataDirLockedError, readLiveLock } from "@/lib/db/data-dir-lock";
import { KassaError } from "@/lib/errors";
import { getConfig } from "@/lib/runtime";
import { type CliCommand, type CliOutput, parseCliArgs, sendToServer } from "./command";
import { KNOWN_COMMANDS, USAGE } from "./usage";

/**
 * Kassa's ops CLI (DESIGN.md section 8):
 *   cli merchants create --name <name> --email <email> --password <password> [--json]
 *   cli sandbox credit --merchant <id> --currency <code> --amount <decimal> [--json]
 *   cli api-keys create|list|revoke --merchant <id> [--label <label>] [--key <key>] [--json]
 * Against PostgreSQL (DATABASE_URL) it connects directly. On the embedded database, if a Kassa
 * server holds the data directory, the command is sent to that server; otherwise it opens the
 * directory itself, holding the same lock a server would.
 */

/** Without a running server: the CLI opens the database itself, and so loads the engine. */
async function direct(command: CliCommand): Promise<CliOutput> {
  const [{ runCliCommand }, { bootDatabase }] = await Promise.all([
    import("@/lib/cli/commands"),
    import("@/lib/host/boot"),
  ]);
  const config = getConfig();
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

async function main(): Promise<number> {
  const { command, positionals, isJson, isHelp } = parseCliArgs(process.argv.slice(2));
  if (isHelp || positionals.length !== 2) {
    console.error(USAGE);
    return isHelp ? 0 : 64;
  }
  if (!KNOWN_COMMANDS.has(command.name)) {
    console.error(`unknown command "${positionals.join(" ")}"\n${USAGE}`);
    return 64;
  }
  const config = getConfig();
  const holder = config.databaseUrl ? undefined : readLiveLock(config.dataDir);
  let output: CliOutput;
  if (holder?.port && holder.role === "server")
    output = await sendToServer(holder.port, holder.token, command);
  else output = await direct(command);

  if (!output.ok) {
    if (isJson)
      console.log(
        JSON.stringify({ error: output.error.message, code: output.error.code, errors: output.error.fields }),
      );
    else {
      console.error(`error: ${output.error.message}`);
      for (const [field, message] of Object.entries(output.error.fields ?? {}))
        console.error(`  ${field}: ${message}`);
    }
    return 1;
  }
  if (isJson) console.log(JSON.stringify(output.result));
  else
    for (const [key, value] of Object.entries(output.result))
      console.log(`${key}: ${typeof value === "object" ? JSON.stringify(value) : value}`);
  // Scripts and monitoring act on the exit code: a difference nothing explains is a failure.
  if (command.name === "chain.reconcile" && output.result.is_reconciled === false) return 2;
  return 0;
}

main()
  .then((code) => process.exit(code))
  .catch((error) => {
    const isExpected =
      error instanceof DataDirLockedError || error instanceof MasterKeyError || error instanceof ConfigError;
    console.error(isExpected ? `error: ${error.message}` : error);
    process.exit(1);
  });
