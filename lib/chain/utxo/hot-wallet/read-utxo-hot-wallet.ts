import "server-only";

import { sql } from "drizzle-orm";
import type { AccountKeys } from "@/lib/chain/account-keys";
import { toLedgerAmount } from "@/lib/chain/evm/to-ledger-amount";
import { type Executor, queryRows } from "@/lib/db/client";
import { formatAmount } from "@/lib/money";
import type { UtxoNetwork } from "../utxo-network";
import { utxoHotWallet } from "./utxo-hot-wallet";

export type UtxoHotWalletView = {
  address: string;
  /** The chain's coin: Kassa's spendable coins, as an 8-digit decimal string. */
  balances: Record<string, string>;
};

/**
 * A UTXO chain's hot wallet as an operator funds it (`cli chain wallets`): the address to send to,
 * and what Kassa can spend on that chain: every coin of its own that is `spendable`, which a coin
 * becomes only with the confirmations required (a credited deposit, a credited funding, the change of
 * a confirmed payout). Coins waiting for confirmations or taken by a payout are left out.
 */
export async function readUtxoHotWallet(
  db: Executor,
  input: { network: Pick<UtxoNetwork, "currency" | "net" | "network">; keys: AccountKeys },
): Promise<UtxoHotWalletView> {
  const { network } = input;
  // Raw: the numeric sum read as text, so it stays exact.
  const [row] = await queryRows<{ total: string }>(
    db,
    sql`select coalesce(sum(base_amount), 0)::text as total from utxo_coins
        where network = ${network.network} and status = 'spendable'`,
  );
  return {
    address: utxoHotWallet(input.keys, network).address,
    balances: { [network.currency]: formatAmount(toLedgerAmount(BigInt(row!.total), 8).amount) },
  };
}
