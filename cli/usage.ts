/** The ops CLI's commands, as `cli --help` prints them (cli/index.ts). */
export const USAGE = `usage:
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
  cli chain bump --currency BTC|LTC --txid <payout txid> [--fee-rate <per virtual byte>] [--json]
                                 (replaces an unmined Bitcoin or Litecoin payout by a higher fee, now)
  cli compliance refund --review <id> --txid <hash> [--fee <decimal>] [--gas <decimal ETH>] [--json]
                                 (books the refund of a rejected payment, once; on the Ethereum chain read from
                                 the node, from the hot wallet: no --fee/--gas; on a sandbox chain --fee withheld
                                 from it, --gas paid)`;

/**
 * The commands USAGE lists (tests/unit/cli-usage.test.ts holds it equal to lib/cli/commands.ts).
 * Read from the text, so that a command sent to a running server loads none of the engine: the
 * engine costs about 3 s of start-up, the rest of this file half a second.
 */
export const KNOWN_COMMANDS = new Set<string>(
  [...USAGE.matchAll(/^ {2}cli ([a-z-]+) ([a-z-]+)/gm)].map(([, group, action]) => `${group}.${action}`),
);
