import "server-only";

import { and, eq, sql } from "drizzle-orm";
import { keccak256 } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { sqlNow } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { evmPayouts } from "@/lib/db/schema";
import type { EvmNetwork } from "../evm-network";
import type { ReplacementPolicy } from "../is-replacement-due";
import { prepareReplacement } from "../prepare-replacement";
import { sendStoredPayout } from "./send-stored-payout";
import type { StoredPayout } from "./store-signed-payout";

/** How the payout tracker replaces a stuck payout: who signs, after how long, and the fee ceiling. */
export type PayoutReplacement = ReplacementPolicy & { wallet: (db: Db) => Promise<PrivateKeyAccount> };

/**
 * Replaces an unmined payout: the same transaction re-signed with fees at least 12.5 % above the last
 * attempt's (or today's estimate if higher), never above the ceiling (then it keeps waiting), stored before
 * it is sent with the old hash in `replaced_hashes` (either may be mined). Only the current attempt is
 * replaced (`where tx_hash = old`), so trackers never both replace it. Otherwise answers why not.
 */
export async function replaceStuckPayout(
  db: Db,
  input: { network: EvmNetwork; payout: StoredPayout; replacement: PayoutReplacement },
): Promise<{ replaced: StoredPayout } | { reason: string }> {
  const { network, payout, replacement } = input;
  const { client } = network;
  const prepared = await prepareReplacement(client, {
    stored: payout,
    chainId: network.chainId,
    ceilingGwei: replacement.ceilingGwei,
  });
  if ("reason" in prepared) return prepared;
  const { transaction } = prepared;
  const { value, gas, maxFeePerGas } = transaction;
  const wallet = await replacement.wallet(db);
  if (wallet.address.toLowerCase() !== payout.fromAddress)
    return { reason: `the hot wallet is no longer ${payout.fromAddress}` };
  const needed = value + gas * maxFeePerGas;
  if ((await client.getBalance({ address: wallet.address })) < needed)
    return { reason: "the hot wallet holds too little ETH for the raised fee" };
  const raw = await wallet.signTransaction(transaction);
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
