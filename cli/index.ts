import { parseArgs } from "node:util";
import { ConfigError } from "@/lib/config";
import { MasterKeyError } from "@/lib/crypto/master-key";
import { DataDirLockedError, readLiveLock } from "@/lib/db/data-dir-lock";
import { KassaError } from "@/lib/errors";
import { getConfig } from "@/lib/runtime";
import { CLI_BRIDGE_PATH } from "@/server/engine-contract";
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
type Output =
  | { ok: true; result: Record<string, unknown> }
  | { ok: false; error: { code: string; message: string; fields?: Record<string, string> } };

function toCommand(positionals: string[], values: Record<string, string | boolean | undefined>) {
  const [group, action] = positionals;
  const name = `${group}.${action}`;
  const args = Object.fromEntries(
    Object.entries(values).filter(([key, value]) => key !== "json" && value !== undefined),
  );
  return { name, args };
}

async function viaServer(port: number, token: string, command: unknown): Promise<Output> {
  const response = await fetch(`http://127.0.0.1:${port}${CLI_BRIDGE_PATH}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-kassa-cli-token": token },
    body: JSON.stringify(command),
  });
  if (response.status === 404) throw new Error("the running server refused the CLI token");
  return (await response.json()) as Output;
}

/** Without a running server: the CLI opens the database itself, and so loads the engine. */
async function direct(command: unknown): Promise<Output> {
  const [{ runCliCommand }, { bootDatabase }] = await Promise.all([
    import("@/lib/cli/commands"),
    import("@/lib/server/boot"),
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
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: "string" },
      email: { type: "string" },
      password: { type: "string" },
      merchant: { type: "string" },
      currency: { type: "string" },
      amount: { type: "string" },
      label: { type: "string" },
      key: { type: "string" },
      id: { type: "string" },
      reason: { type: "string" },
      url: { type: "string" },
      "per-withdrawal": { type: "string" },
      "per-day": { type: "string" },
      txid: { type: "string" },
      set: { type: "string" },
      score: { type: "string" },
      review: { type: "string" },
      fee: { type: "string" },
      gas: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help || positionals.length !== 2) {
    console.error(USAGE);
    return values.help ? 0 : 64;
  }
  const command = toCommand(positionals, values);
  if (!KNOWN_COMMANDS.has(command.name)) {
    console.error(`unknown command "${positionals.join(" ")}"\n${USAGE}`);
    return 64;
  }
  const config = getConfig();
  const holder = config.databaseUrl ? undefined : readLiveLock(config.dataDir);
  let output: Output;
  if (holder?.port && holder.role === "server") output = await viaServer(holder.port, holder.token, command);
  else output = await direct(command);

  if (!output.ok) {
    if (values.json)
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
  if (values.json) console.log(JSON.stringify(output.result));
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
