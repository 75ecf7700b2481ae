import "server-only";

import { sql } from "drizzle-orm";
import { type Executor, queryRows } from "@/lib/db/client";
import { formatAmount, parseStoredAmount } from "@/lib/money";
import { EVM_CURRENCIES, type EvmNetwork } from "../evm-network";
import { toLedgerAmount } from "../to-ledger-amount";
import { estimateFees } from "./estimate-fees";
import { BALANCE_ABI } from "./payout-call";

/** Gas a payout is assumed to take while it waits (ETH transfers take exactly this; tokens less than this). */
const ASSUMED_GAS = { ETH: 21_000n, token: 100_000n };

export type WaitingPayouts = {
  hot_wallet: string;
  payouts: {
    id: number;
    merchant_id: number;
    status: string;
    currency: string;
    amount: string;
    address: string;
    created_at: string;
  }[];
  /** Per currency: what waits, what the hot wallet has left once the transactions already sent are mined, and what is missing. */
  currencies: Record<string, { waiting: string; count: number; available: string; missing: string }>;
  /** ETH the waiting payouts' gas is expected to take at today's fees (an estimate), and is included in ETH's `missing`. */
  gas_estimate: string;
};

async function pendingBalance(network: EvmNetwork, currency: string, owner: `0x${string}`): Promise<bigint> {
  if (currency === "ETH") return network.client.getBalance({ address: owner, blockTag: "pending" });
  const token = network.tokens.find((t) => t.currency === currency);
  if (!token) return 0n;
  return network.client.readContract({
    address: token.address,
    abi: BALANCE_ABI,
    functionName: "balanceOf",
    args: [owner],
    blockTag: "pending",
  });
}

/** Base units in ledger units, rounded up: what is missing is never shown smaller than it is. */
function ledgerUnitsUp(base: bigint, decimals: number): bigint {
  const { amount, dust } = toLedgerAmount(base, decimals);
  return amount + (dust > 0n ? 1n : 0n);
}

/**
 * The withdrawals that wait for the hot wallet (accepted, in `processing` or claimed, with no
 * transaction signed yet: a short wallet keeps them there, DESIGN.md section 5), and per currency
 * how much the hot wallet lacks to send them all: the waiting amounts (plus, for ETH, their gas at
 * today's fees) against its balance at the pending block (what is left after the payouts already
 * sent). For `cli chain payouts`: the operator funds the hot wallet with at least `missing`.
 */
export async function listWaitingPayouts(
  db: Executor,
  input: { network: EvmNetwork; hotWallet: `0x${string}`; ceilingGwei: number },
): Promise<WaitingPayouts> {
  const { network } = input;
  // Raw: the payout's reference is built from the withdrawal's id.
  const rows = await queryRows<{
    id: string | number;
    merchant_id: string | number;
    status: string;
    currency: string;
    amount: string;
    address: string;
    created_at: Date | string;
  }>(
    db,
    sql`select t.id, w.merchant_id, t.status, w.target_currency as currency, w.sent_amount::text as amount,
               w.address, w.created_at
        from withdrawals w join transactions t on t.id = w.transaction_id
        where w.target_currency in ('ETH', 'USDTE', 'USDC') and t.status in ('processing', 'sending')
          and w.txid is null
          and not exists (select 1 from evm_payouts p where p.reference = 'withdrawal:' || t.id::text)
        order by t.id`,
  );
  const payouts = rows.map((r) => ({
    id: Number(r.id),
    merchant_id: Number(r.merchant_id),
    status: r.status,
    currency: r.currency,
    amount: formatAmount(parseStoredAmount(r.amount)),
    address: r.address,
    created_at: new Date(r.created_at).toISOString(),
  }));
  let gas = 0n;
  if (payouts.length > 0) {
    const { maxFeePerGas } = await estimateFees(network.client, { ceilingGwei: input.ceilingGwei });
    for (const payout of payouts)
      gas += (payout.currency === "ETH" ? ASSUMED_GAS.ETH : ASSUMED_GAS.token) * maxFeePerGas;
  }
  const gasUnits = ledgerUnitsUp(gas, 18);
  const currencies: WaitingPayouts["currencies"] = {};
  for (const currency of EVM_CURRENCIES) {
    const mine = payouts.filter((p) => p.currency === currency);
    const waiting =
      mine.reduce((sum, p) => sum + parseStoredAmount(p.amount), 0n) + (currency === "ETH" ? gasUnits : 0n);
    const decimals =
      currency === "ETH" ? 18 : (network.tokens.find((t) => t.currency === currency)?.decimals ?? 8);
    // What is available is rounded down: a wallet is never shown richer than it is.
    const available = toLedgerAmount(
      await pendingBalance(network, currency, input.hotWallet),
      decimals,
    ).amount;
    currencies[currency] = {
      waiting: formatAmount(waiting),
      count: mine.length,
      available: formatAmount(available),
      missing: formatAmount(waiting > available ? waiting - available : 0n),
    };
  }
  return { hot_wallet: input.hotWallet, payouts, currencies, gas_estimate: formatAmount(gasUnits) };
}
