import "server-only";

import { and, eq, sql } from "drizzle-orm";
import { keccak256, parseTransaction } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { type Clock, sqlNow, systemClock } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { evmPayouts } from "@/lib/db/schema";
import type { EvmNetwork } from "../evm-network";
import { estimateFees } from "./estimate-fees";
import { sendStoredPayout } from "./send-stored-payout";
import type { StoredPayout } from "./store-signed-payout";

const GWEI = 1_000_000_000n;

/** How the payout tracker replaces a stuck payout: who signs, after how long, and the fee ceiling. */
export type PayoutReplacement = {
  wallet: (db: Db) => Promise<PrivateKeyAccount>;
  afterSeconds: number;
  ceilingGwei: number;
  clock?: Clock;
};

/**
 * A fee raised by at least 12.5 %, rounded up: nodes (geth, anvil) refuse a same-nonce replacement
 * that offers less than that on both the max fee and the tip.
 */
export const bumpFee = (fee: bigint) => fee + (fee + 7n) / 8n;

/** Whether the payout's current attempt has waited unmined longer than the replacement threshold. */
export function isReplacementDue(payout: StoredPayout, replacement: PayoutReplacement): boolean {
  const now = (replacement.clock ?? systemClock).now().getTime();
  return payout.signedAt.getTime() + replacement.afterSeconds * 1000 <= now;
}

/**
 * Replaces a payout that has not been mined: the same transaction (same nonce, recipient, amount,
 * gas) signed again with fees at least 12.5 % above the last attempt's, or today's estimate if that
 * is higher, and stored (the old hash kept in `replaced_hashes`: either may still be mined) before it
 * is sent. Never above the ceiling: a payout whose raised fee would pass it keeps waiting on its
 * last attempt. Only the attempt that is still current is replaced (`where tx_hash = old`), so two
 * trackers never sign two replacements for one attempt. Answers why not when it did not replace.
 */
export async function replaceStuckPayout(
  db: Db,
  input: { network: EvmNetwork; payout: StoredPayout; replacement: PayoutReplacement },
): Promise<{ replaced: StoredPayout } | { reason: string }> {
  const { network, payout, replacement } = input;
  const { client } = network;
  const old = parseTransaction(payout.rawTransaction as `0x${string}`);
  if (old.type !== "eip1559" || old.maxFeePerGas === undefined || old.maxPriorityFeePerGas === undefined)
    return { reason: "its stored transaction is not an EIP-1559 transaction" };
  const current = await estimateFees(client, { ceilingGwei: replacement.ceilingGwei });
  const maxFeePerGas = max(bumpFee(old.maxFeePerGas), current.maxFeePerGas);
  const maxPriorityFeePerGas = max(bumpFee(old.maxPriorityFeePerGas), current.maxPriorityFeePerGas);
  const ceiling = BigInt(replacement.ceilingGwei) * GWEI;
  if (maxFeePerGas > ceiling)
    return { reason: `a raised fee of ${maxFeePerGas} wei per gas would pass the ceiling of ${ceiling}` };
  const wallet = await replacement.wallet(db);
  if (wallet.address.toLowerCase() !== payout.fromAddress)
    return { reason: `the hot wallet is no longer ${payout.fromAddress}` };
  const gas = old.gas ?? payout.gasLimit;
  const value = old.value ?? 0n;
  const needed = value + gas * maxFeePerGas;
  if ((await client.getBalance({ address: wallet.address })) < needed)
    return { reason: "the hot wallet holds too little ETH for the raised fee" };
  const raw = await wallet.signTransaction({
    type: "eip1559",
    chainId: network.chainId,
    nonce: Number(payout.nonce),
    to: old.to,
    value,
    data: old.data,
    gas,
    maxFeePerGas,
    maxPriorityFeePerGas,
  });
  const [replaced] = await db
    .update(evmPayouts)
    .set({
      rawTransaction: raw,
      txHash: keccak256(raw),
      maxFeePerGas,
      replacedHashes: sql`array_append(${evmPayouts.replacedHashes}, ${payout.txHash})`,
      signedAt: sql`${sqlNow(replacement.clock)}`,
    })
    .where(
      and(
        eq(evmPayouts.reference, payout.reference),
        eq(evmPayouts.txHash, payout.txHash),
        eq(evmPayouts.status, "signed"),
      ),
    )
    .returning();
  if (!replaced) return { reason: "another tracker replaced or settled it first" };
  await sendStoredPayout(client, replaced);
  return { replaced };
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);
