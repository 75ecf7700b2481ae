import { ConfigError } from "@/lib/config";
import { MasterKeyError } from "@/lib/crypto/master-key";
import { DataDirLockedError } from "@/lib/db/data-dir-lock";
import { getConfig } from "@/lib/runtime";
import { parseCliArgs } from "./command";
import { runCli } from "./run";
import { KNOWN_COMMANDS, USAGE } from "./usage";

/**
 * Kassa's ops CLI (DESIGN.md section 8):
 *   cli merchants create --name <name> --email <email> --password <password> [--json]
 *   cli sandbox credit --merchant <id> --currency <code> --amount <decimal> [--json]
 *   cli api-keys create|list|revoke --merchant <id> [--label <label>] [--key <key>] [--json]
 * Where a command runs (directly, or through the server holding the embedded database): cli/run.ts.
 */

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
  const output = await runCli(command, getConfig());

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
