import { parseArgs } from "node:util";
import { cliCommand, runCliCommand } from "@/lib/cli/commands";
import { ConfigError } from "@/lib/config";
import { MasterKeyError } from "@/lib/crypto/master-key";
import { DataDirLockedError, readLiveLock } from "@/lib/db/data-dir-lock";
import { KassaError } from "@/lib/errors";
import { getConfig } from "@/lib/runtime";
import { bootDatabase } from "@/lib/server/boot";
import { CLI_BRIDGE_PATH } from "@/server/engine-contract";

/**
 * Kassa's ops CLI (DESIGN.md section 8):
 *   cli merchants create --name <name> --email <email> --password <password> [--json]
 *   cli sandbox credit --merchant <id> --currency <code> --amount <decimal> [--json]
 *   cli api-keys create|list|revoke --merchant <id> [--label <label>] [--key <key>] [--json]
 * Against PostgreSQL (DATABASE_URL) it connects directly. On the embedded database, if a Kassa
 * server holds the data directory, the command is sent to that server; otherwise it opens the
 * directory itself, holding the same lock a server would.
 */
const USAGE = `usage:
  cli merchants create --name <name> --email <email> --password <password> [--json]
  cli sandbox credit --merchant <id> --currency <code> --amount <decimal> [--json]
  cli api-keys create --merchant <id> [--label <label>] [--json]
  cli api-keys list --merchant <id> [--json]
  cli api-keys revoke --merchant <id> --key <api key> [--json]
  cli withdrawals reject --id <withdrawal id> --reason <text> [--json]
  cli merchants set-callback --merchant <id> --url <https url, or "" to remove> [--json]
  cli merchants limits --merchant <id> --currency <code> --per-withdrawal <decimal> [--per-day <decimal>] [--json]
  cli merchants below-minimum-callback --merchant <id> --set on|off [--json]
  cli merchants review-threshold --merchant <id> --score <0-100> [--json]
  cli callbacks resend --merchant <id> --id <callback id> [--json]
  cli chain incidents [--json]
  cli chain wallets [--json]
  cli chain sweeps [--json]
  cli chain reconcile [--json]   (exit code 2 when on-chain holdings and the ledger differ unexplained)
  cli chain fund --currency ETH|USDTE|USDC --txid <0x… hash> [--json]  (records the operator's funding of the hot wallet)
  cli chain payouts [--json]     (withdrawals waiting for the hot wallet, and what it lacks)
  cli compliance refund --review <id> --txid <hash> [--fee <decimal>] [--gas <decimal ETH>] [--json]
                                 (books the refund of a rejected payment, once; on the Ethereum chain read from
                                 the node, from the hot wallet: no --fee/--gas; on a sandbox chain --fee withheld
                                 from it, --gas paid)`;

const KNOWN_COMMANDS = new Set<string>(cliCommand.options.map((option) => option.shape.name.value));

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

async function direct(command: unknown): Promise<Output> {
  const config = getConfig();
  const { handle, box, lock } = await bootDatabase(config, "cli");
  try {
    const result = await runCliCommand(command, {
      db: handle.db,
      box,
      isSandbox: config.isSandbox,
      evm: config.evm,
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
