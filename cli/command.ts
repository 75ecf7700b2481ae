import { parseArgs } from "node:util";
import { CLI_BRIDGE_PATH } from "@/server/engine-contract";

/**
 * How the ops CLI reads its arguments and hands a command to a running server (cli/index.ts). Kept
 * free of the engine and of server-only modules, so the e2e fixtures send their setup commands the
 * same way without starting a Node process each time (e2e/fixtures.ts).
 */
export type CliCommand = { name: string; args: Record<string, string | boolean> };

export type CliOutput =
  | { ok: true; result: Record<string, unknown> }
  | { ok: false; error: { code: string; message: string; fields?: Record<string, string> } };

const OPTIONS = {
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
} as const;

/** The command line as the CLI reads it: `group action --option value …`. */
export function parseCliArgs(argv: string[]) {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  const [group, action] = positionals;
  const args = Object.fromEntries(
    Object.entries(values).filter(([key, value]) => key !== "json" && value !== undefined),
  ) as CliCommand["args"];
  return {
    command: { name: `${group}.${action}`, args } satisfies CliCommand,
    positionals,
    isJson: values.json === true,
    isHelp: values.help === true,
  };
}

/** Sends a command to the Kassa server on `port` that holds the data directory (its lock names the token). */
export async function sendToServer(port: number, token: string, command: CliCommand): Promise<CliOutput> {
  const response = await fetch(`http://127.0.0.1:${port}${CLI_BRIDGE_PATH}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-kassa-cli-token": token },
    body: JSON.stringify(command),
  });
  if (response.status === 404) throw new Error("the running server refused the CLI token");
  return (await response.json()) as CliOutput;
}
