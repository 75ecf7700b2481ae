import "server-only";

import { eq, sql } from "drizzle-orm";
import { formatUnits } from "viem";
import type { Db } from "@/lib/db/client";
import { chainCursors } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { SCALE } from "@/lib/money";
import { EVM_CURRENCIES, type EvmNetwork } from "../evm-network";
import { findMinedAttempt } from "../find-mined-attempt";
import { weiToLedgerUnits } from "../payout/wei-to-ledger-units";
import { readEvmRefund } from "../refund/read-evm-refund";
import { type BookedRefund, readBookedRefunds } from "./read-booked-refunds";
import { readChainHoldings, readFundedDepositAddresses } from "./read-chain-holdings";
import {
  readLedgerHoldings,
  readRecordedPayments,
  readSignedTransactions,
  type SignedTransaction,
} from "./read-kassa-movements";

/**
 * Why on-chain holdings and the ledger differ, each as on-chain minus ledger. Each field's meaning:
 * docs/OPERATIONS.md, "The hot wallet", Reconciliation.
 */
export const EXPLANATIONS = [
  "dust",
  "payments_not_credited",
  "payouts_in_flight",
  "gas_not_booked",
  "gas_rounding",
] as const;
type Explanation = (typeof EXPLANATIONS)[number];

export type CurrencyReconciliation = {
  on_chain: string;
  hot_wallet: string;
  deposit_addresses: string;
  ledger: string;
  difference: string;
  explained: Record<Explanation, string>;
  unexplained: string;
  is_reconciled: boolean;
};

export type Reconciliation = {
  network: string;
  block: string;
  hot_wallet: string;
  deposit_addresses_read: number;
  currencies: Record<string, CurrencyReconciliation>;
  is_reconciled: boolean;
};

/** Exact comparisons need one unit per currency: the finer of its base unit and the ledger's 10^-8. */
function unitsOf(network: EvmNetwork) {
  const decimals: Record<string, number> = { ETH: 18 };
  for (const token of network.tokens) decimals[token.currency] = token.decimals;
  const digits = (currency: string) => Math.max(decimals[currency] ?? SCALE, SCALE);
  return {
    digits,
    fromBase: (currency: string, base: bigint) =>
      base * 10n ** BigInt(digits(currency) - (decimals[currency] ?? SCALE)),
    fromLedger: (currency: string, units: bigint) => units * 10n ** BigInt(digits(currency) - SCALE),
  };
}

/** Whether a signed transaction is mined at `block` (settled rows know their block; others ask the node). */
async function minedAt(
  network: EvmNetwork,
  signed: SignedTransaction,
  block: bigint,
): Promise<{ isSuccess: boolean; fee: bigint } | undefined> {
  if (signed.status !== "signed") {
    if (signed.blockNumber === null || signed.blockNumber > block) return undefined;
    return { isSuccess: signed.status === "confirmed", fee: signed.feePaid ?? 0n };
  }
  // Its attempts share one nonce: at most one of them is ever mined.
  const mined = await findMinedAttempt(network, signed.hashes);
  if (!mined || mined.receipt.blockNumber > block) return undefined;
  const { receipt } = mined;
  return { isSuccess: receipt.status === "success", fee: receipt.gasUsed * receipt.effectiveGasPrice };
}

/**
 * A compliance refund the operator sent from the hot wallet (`cli compliance refund`), booked from
 * its receipt: the value booked (rounded up to 10^-8) against what left on chain is dust, the gas
 * booked (rounded up) against the gas paid is gas_rounding; not mined at `block`, both are in flight.
 */
async function explainRefund(input: {
  network: EvmNetwork;
  hotWallet: `0x${string}`;
  block: bigint;
  refund: BookedRefund;
  add: (currency: string, why: Explanation, amount: bigint) => void;
}): Promise<void> {
  const { network, refund, add } = input;
  const units = unitsOf(network);
  // Only a hash can be asked of the node (a refund booked by typed flags may name something else).
  const onChain = /^0x[0-9a-f]{64}$/.test(refund.txid)
    ? await readEvmRefund(network, {
        txid: refund.txid as `0x${string}`,
        currency: refund.currency,
        sender: input.hotWallet,
      })
    : undefined;
  const mined = onChain && onChain.blockNumber <= input.block ? onChain : undefined;
  // The refund journal books the gas into platform:chain ETH beside an ETH refund's amount: the
  // receipt's gas, rounded as booked, tells them apart.
  const gasUnits = onChain
    ? weiToLedgerUnits(onChain.gasWei)
    : refund.currency === "ETH"
      ? 0n
      : refund.ledgerEth;
  const sentUnits = refund.currency === "ETH" ? refund.ledgerEth - gasUnits : refund.ledgerSent;
  const bookedGas = units.fromLedger("ETH", gasUnits);
  if (mined) add("ETH", "gas_rounding", bookedGas - mined.gasWei);
  else add("ETH", "gas_not_booked", bookedGas);
  const left = mined?.isSuccess ? units.fromBase(refund.currency, mined.baseAmount) : 0n;
  add(
    refund.currency,
    left > 0n ? "dust" : "payouts_in_flight",
    units.fromLedger(refund.currency, sentUnits) - left,
  );
}

/**
 * Compares what Kassa's addresses (hot wallet, deposit addresses) hold on chain at one block with what the
 * ledger says (platform:chain's other side), per currency, exactly (the finer of base units and 10^-8), and
 * explains the difference from Kassa's records; the rest is `unexplained`. The block is the watcher's
 * cursor (or the tip before its first pass), so a payment mined since is no discrepancy.
 */
export async function reconcileEvmChain(
  db: Db,
  input: { network: EvmNetwork; hotWallet: `0x${string}` },
): Promise<Reconciliation> {
  const { network } = input;
  // One snapshot of the database (no node calls inside it): a payout settled between two reads
  // would otherwise show its gas in one and not the other.
  const records = await inTransaction(db, async (tx) => {
    await tx.execute(sql`set transaction isolation level repeatable read`);
    const [cursor] = await tx
      .select({ blockNumber: chainCursors.blockNumber })
      .from(chainCursors)
      .where(eq(chainCursors.network, network.network));
    return {
      cursorBlock: cursor?.blockNumber,
      ledger: await readLedgerHoldings(tx, EVM_CURRENCIES),
      payments: await readRecordedPayments(tx, { network: network.network, hotWallet: input.hotWallet }),
      signed: await readSignedTransactions(tx, network.network),
      depositAddresses: await readFundedDepositAddresses(tx, network.network),
      refunds: await readBookedRefunds(tx, network.network),
    };
  });
  const { ledger, payments, signed, refunds } = records;
  const tip = await network.client.getBlockNumber({ cacheTime: 0 });
  const block = records.cursorBlock !== undefined && records.cursorBlock < tip ? records.cursorBlock : tip;
  const units = unitsOf(network);
  const holdings = await readChainHoldings({
    network,
    hotWallet: input.hotWallet,
    depositAddresses: records.depositAddresses,
    blockNumber: block,
  });

  const explained = new Map<string, Record<Explanation, bigint>>();
  for (const currency of EVM_CURRENCIES)
    explained.set(
      currency,
      Object.fromEntries(EXPLANATIONS.map((e) => [e, 0n])) as Record<Explanation, bigint>,
    );
  const add = (currency: string, why: Explanation, amount: bigint) => {
    const sums = explained.get(currency);
    if (sums) sums[why] += amount;
  };

  for (const payment of payments) {
    const onChain = payment.isRemoved ? 0n : units.fromBase(payment.currency, payment.baseAmount);
    const inLedger = payment.isCredited ? units.fromLedger(payment.currency, payment.amount) : 0n;
    add(
      payment.currency,
      payment.isCredited && !payment.isRemoved ? "dust" : "payments_not_credited",
      onChain - inLedger,
    );
  }

  for (const transaction of signed) {
    const mined = await minedAt(network, transaction, block);
    const fee = mined?.fee ?? 0n;
    const isSettled = transaction.status !== "signed";
    const booked = isSettled ? weiToLedgerUnits(transaction.feePaid ?? 0n) * 10n ** BigInt(18 - SCALE) : 0n;
    if (isSettled && mined) add("ETH", "gas_rounding", booked - fee);
    else add("ETH", "gas_not_booked", booked - fee);
    if (transaction.kind !== "payout") continue;
    // A payout moves value out of Kassa: compare what left on chain with what the ledger sent.
    const left = mined?.isSuccess ? units.fromBase(transaction.currency, transaction.baseAmount) : 0n;
    const sent = units.fromLedger(transaction.currency, transaction.ledgerSent);
    add(transaction.currency, left > 0n && sent > 0n ? "dust" : "payouts_in_flight", sent - left);
  }

  for (const refund of refunds)
    await explainRefund({ network, hotWallet: input.hotWallet, block, refund, add });

  const currencies: Record<string, CurrencyReconciliation> = {};
  for (const currency of EVM_CURRENCIES) {
    const digits = units.digits(currency);
    const show = (amount: bigint) => formatUnits(amount, digits);
    const onChain = units.fromBase(
      currency,
      holdings.hotWallet[currency]! + holdings.depositAddresses[currency]!,
    );
    const inLedger = units.fromLedger(currency, ledger[currency]!);
    const sums = explained.get(currency)!;
    const unexplained = onChain - inLedger - EXPLANATIONS.reduce((total, why) => total + sums[why], 0n);
    currencies[currency] = {
      on_chain: show(onChain),
      hot_wallet: show(units.fromBase(currency, holdings.hotWallet[currency]!)),
      deposit_addresses: show(units.fromBase(currency, holdings.depositAddresses[currency]!)),
      ledger: show(inLedger),
      difference: show(onChain - inLedger),
      explained: Object.fromEntries(EXPLANATIONS.map((why) => [why, show(sums[why])])) as Record<
        Explanation,
        string
      >,
      unexplained: show(unexplained),
      is_reconciled: unexplained === 0n,
    };
  }
  return {
    network: network.network,
    block: block.toString(),
    hot_wallet: input.hotWallet,
    deposit_addresses_read: holdings.addressCount,
    currencies,
    is_reconciled: Object.values(currencies).every((c) => c.is_reconciled),
  };
}
