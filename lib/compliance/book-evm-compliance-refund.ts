import "server-only";

import { formatUnits } from "viem";
import type { AuditSource } from "@/lib/audit/record-audit-entry";
import type { EvmNetwork } from "@/lib/chain/evm/evm-network";
import { advanceHotWalletNonce } from "@/lib/chain/evm/payout/advance-hot-wallet-nonce";
import { weiToLedgerUnits } from "@/lib/chain/evm/payout/wei-to-ledger-units";
import { findOwnPayout } from "@/lib/chain/evm/refund/find-own-payout";
import { readEvmRefund } from "@/lib/chain/evm/refund/read-evm-refund";
import { toLedgerAmount } from "@/lib/chain/evm/to-ledger-amount";
import type { Db } from "@/lib/db/client";
import { fieldError, KassaError, notFound } from "@/lib/errors";
import { bookComplianceRefund, type ComplianceRefund } from "./book-compliance-refund";
import { checkRefundable } from "./check-refundable";
import { readHeldPayment } from "./read-held-payment";

export type EvmComplianceRefund = ComplianceRefund & {
  /** What left the hot wallet, exactly (in the currency's base units, as a decimal). */
  sent_on_chain: string;
  /** The gas paid, to the wei, in ETH. */
  gas_on_chain: string;
  /** A payout Kassa signed with the nonce this refund used: it can never be mined (OPERATIONS.md). */
  stuck_payout?: string;
};

/** Base units in ledger units rounded up: what left Kassa is never booked smaller than it was. */
function toLedgerUnitsUp(baseUnits: bigint, decimals: number): bigint {
  const { amount, dust } = toLedgerAmount(baseUnits, decimals);
  return dust > 0n ? amount + 1n : amount;
}

/** A node that does not answer is the operator's to retry, said in one line (the CLI prints no stack for it). */
async function askNode<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof KassaError) throw error;
    const reason = (error as Error).message.split("\n")[0];
    throw new KassaError(
      "service_unavailable",
      `The EVM node did not answer (${reason}): nothing was booked, try again.`,
    );
  }
}

/**
 * Books a held EVM payment's refund from the refund transaction read from the node (never typed): mined
 * with the confirmations, succeeded, from the hot wallet, paying the payment's currency to another address,
 * no more than arrived. Sent is booked rounded up to 10^-8 but at most the held amount; the fee withheld is
 * held - sent; gas as payouts book it. The hot wallet's nonce counter moves past the refund's nonce.
 */
export async function bookEvmComplianceRefund(
  db: Db,
  input: {
    network: EvmNetwork;
    hotWallet: `0x${string}`;
    reviewId: number;
    txid: string;
    audit: AuditSource;
  },
): Promise<EvmComplianceRefund> {
  const { network, hotWallet } = input;
  const typed = input.txid.trim();
  if (!/^0x[0-9a-fA-F]{64}$/.test(typed))
    throw fieldError({ txid: "Give the refund transaction's hash: 0x and 64 hexadecimal digits." });
  const txid = typed.toLowerCase() as `0x${string}`;
  const held = await readHeldPayment(db, input.reviewId);
  if (!held) throw notFound("No such review.");
  // Refused before the node is asked; bookComplianceRefund checks again under a lock.
  checkRefundable(held);
  const { currency } = held;
  const payout = await findOwnPayout(db, txid);
  if (payout)
    throw fieldError({
      txid: `This transaction is Kassa's own payout ${payout}, booked already: not a refund.`,
    });
  const decimals = currency === "ETH" ? 18 : network.tokens.find((t) => t.currency === currency)?.decimals;
  if (decimals === undefined) throw fieldError({ currency: `${currency} has no contract on this node.` });

  const refund = await askNode(() => readEvmRefund(network, { txid, currency, sender: hotWallet }));
  if (!refund)
    throw fieldError({ txid: "The node knows no mined transaction with this id: book it once it is mined." });
  if (!refund.isSuccess) throw fieldError({ txid: "This transaction reverted: it refunded nothing." });
  if (refund.from !== hotWallet.toLowerCase())
    throw fieldError({
      txid: `This transaction was sent from ${refund.from}, not from the hot wallet ${hotWallet.toLowerCase()}: a refund leaves from the hot wallet.`,
    });
  const tip = await askNode(() => network.client.getBlockNumber({ cacheTime: 0 }));
  const required = BigInt(network.confirmations[currency] ?? 1);
  if (tip - refund.blockNumber + 1n < required)
    throw fieldError({ txid: `Wait for ${required} confirmations, then book it.` });
  if (currency !== "ETH" && refund.value > 0n)
    throw fieldError({
      txid: `This transaction also sent ETH: a ${currency} refund sends only ${currency}.`,
    });
  if (refund.baseAmount === 0n)
    throw fieldError({
      txid: `This transaction sent no ${currency} from the hot wallet to another address.`,
    });

  // Judged against what arrived, to the wei: the held amount is that rounded down to 10^-8, so an
  // operator sending back exactly what the customer paid sends a few wei more than is held.
  const received = held.baseAmount;
  if (received !== null && refund.baseAmount > received)
    throw fieldError({
      txid: `This transaction sent ${formatUnits(refund.baseAmount, decimals)} ${currency}, more than the ${formatUnits(received, decimals)} ${currency} this payment brought: it is not this payment's refund.`,
    });
  // Rounded up, but never above the held amount: the wei sent beyond it are the payment's own dust
  // (below 10^-8, never booked) going back, which reconciliation nets with that dust.
  const sentUnits = toLedgerUnitsUp(refund.baseAmount, decimals);
  // The held amount: what arrived as its crediting booked it (lib/chain/evm/to-ledger-amount.ts).
  const heldUnits = received === null ? undefined : toLedgerAmount(received, decimals).amount;
  let stuckPayout: string | undefined;
  const booked = await bookComplianceRefund(db, {
    reviewId: input.reviewId,
    txid,
    sent: heldUnits !== undefined && sentUnits > heldUnits ? heldUnits : sentUnits,
    gas: weiToLedgerUnits(refund.gasWei),
    audit: input.audit,
    alsoInTransaction: async (tx) => {
      stuckPayout = await advanceHotWalletNonce(tx, {
        network: network.network,
        address: hotWallet,
        nonce: refund.nonce,
      });
    },
  });
  if (stuckPayout)
    console.error(
      `[chain] refund ${txid} used nonce ${refund.nonce} of the hot wallet, which payout ${stuckPayout} was signed with: that payout cannot be mined`,
    );
  return {
    ...booked,
    sent_on_chain: formatUnits(refund.baseAmount, decimals),
    gas_on_chain: formatUnits(refund.gasWei, 18),
    ...(stuckPayout ? { stuck_payout: stuckPayout } : {}),
  };
}
