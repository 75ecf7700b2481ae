import "server-only";

import { and, eq, sql } from "drizzle-orm";
import { keccak256 } from "viem";
import { sqlNow } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { depositAddresses, evmSweeps } from "@/lib/db/schema";
import type { EvmNetwork } from "../evm-network";
import type { ReplacementPolicy } from "../is-replacement-due";
import { sendStoredPayout } from "../payout/send-stored-payout";
import { prepareReplacement } from "../prepare-replacement";
import { deriveDepositAccount } from "./derive-deposit-account";
import type { StoredSweep } from "./store-signed-sweep";

/** How the sweep tracker replaces a stuck sweep: the seed its deposit keys come from, after how long, the fee ceiling. */
export type SweepReplacement = ReplacementPolicy & { seed: (db: Db) => Promise<Uint8Array> };

/**
 * Replaces an unmined sweep as replace-stuck-payout.ts does payouts (same nonce, +12.5 % or today's
 * estimate, the ceiling, stored first, old hash kept, only the current attempt). An ETH sweep pays gas
 * from its amount, which drops by the higher fee; a token sweep's gas comes from the address's ETH, and
 * one with too little for the raised fee keeps waiting.
 */
export async function replaceStuckSweep(
  db: Db,
  input: { network: EvmNetwork; sweep: StoredSweep; replacement: SweepReplacement },
): Promise<{ replaced: StoredSweep } | { reason: string }> {
  const { network, sweep, replacement } = input;
  const { client } = network;
  const prepared = await prepareReplacement(client, {
    stored: sweep,
    chainId: network.chainId,
    ceilingGwei: replacement.ceilingGwei,
  });
  if ("reason" in prepared) return prepared;
  const { gas, maxFeePerGas } = prepared.transaction;
  // An ETH sweep sends what the address holds minus the gas: more gas, less amount.
  const value =
    sweep.currency === "ETH"
      ? prepared.transaction.value - gas * (maxFeePerGas - prepared.oldMaxFeePerGas)
      : prepared.transaction.value;
  if (value <= 0n) return { reason: "the raised fee would take the whole amount" };
  if ((await client.getBalance({ address: sweep.fromAddress as `0x${string}` })) < value + gas * maxFeePerGas)
    return { reason: "the deposit address holds too little ETH for the raised fee" };
  const [address] = await db
    .select({ path: depositAddresses.derivationPath })
    .from(depositAddresses)
    .where(eq(depositAddresses.id, sweep.depositAddressId));
  const account = deriveDepositAccount(await replacement.seed(db), address!.path);
  if (account.address.toLowerCase() !== sweep.fromAddress)
    return { reason: `deposit address ${sweep.depositAddressId} does not derive from ${address!.path}` };
  const raw = await account.signTransaction({ ...prepared.transaction, value });
  const [replaced] = await db
    .update(evmSweeps)
    .set({
      rawTransaction: raw,
      txHash: keccak256(raw),
      maxFeePerGas,
      baseAmount: sweep.currency === "ETH" ? value : sweep.baseAmount,
      replacedHashes: sql`array_append(${evmSweeps.replacedHashes}, ${sweep.txHash})`,
      signedAt: sql`${sqlNow(replacement.clock)}`,
    })
    .where(
      and(eq(evmSweeps.id, sweep.id), eq(evmSweeps.txHash, sweep.txHash), eq(evmSweeps.status, "signed")),
    )
    .returning();
  if (!replaced) return { reason: "another tracker replaced or settled it first" };
  await sendStoredPayout(client, replaced);
  return { replaced };
}
