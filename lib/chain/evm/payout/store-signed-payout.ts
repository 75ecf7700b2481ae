import "server-only";

import { eq, sql } from "drizzle-orm";
import { keccak256 } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import type { Db } from "@/lib/db/client";
import { evmHotWallets, evmPayouts } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import type { EvmNetwork } from "../evm-network";
import type { PayoutFees } from "./estimate-fees";
import type { PayoutCall } from "./payout-call";

export type StoredPayout = typeof evmPayouts.$inferSelect;

/**
 * Signs a payout and stores it by reference, taking the hot wallet's next nonce in the same transaction
 * (its row lock orders signers, a rollback gives the nonce back: never reused nor skipped). Sends nothing:
 * the caller sends the stored bytes. A reference already stored keeps its transaction. `firstNonce` (the
 * node's pending count) seeds a new wallet's row and lifts the counter past nonces used outside Kassa.
 */
export async function storeSignedPayout(
  db: Db,
  input: {
    reference: string;
    network: EvmNetwork;
    wallet: PrivateKeyAccount;
    call: PayoutCall;
    fees: PayoutFees;
    gasLimit: bigint;
    firstNonce: number;
  },
): Promise<StoredPayout> {
  const { network, wallet, call } = input;
  const from = wallet.address.toLowerCase();
  return inTransaction(db, async (tx) => {
    const [existing] = await tx.select().from(evmPayouts).where(eq(evmPayouts.reference, input.reference));
    if (existing) return existing;
    await tx
      .insert(evmHotWallets)
      .values({ network: network.network, address: from, nextNonce: BigInt(input.firstNonce) })
      .onConflictDoNothing();
    const [allocated] = await tx
      .update(evmHotWallets)
      // Never below the node's count: a transaction the operator sent from the hot wallet by hand
      // (a compliance refund, docs/OPERATIONS.md) took a nonce this counter did not hand out.
      .set({ nextNonce: sql`greatest(${evmHotWallets.nextNonce}, ${BigInt(input.firstNonce)}) + 1` })
      .where(sql`${evmHotWallets.network} = ${network.network} and ${evmHotWallets.address} = ${from}`)
      .returning({ nonce: sql<string>`(${evmHotWallets.nextNonce} - 1)::text` });
    const nonce = BigInt(allocated!.nonce);
    const raw = await wallet.signTransaction({
      type: "eip1559",
      chainId: network.chainId,
      nonce: Number(nonce),
      to: call.to,
      value: call.value,
      data: call.data,
      gas: input.gasLimit,
      maxFeePerGas: input.fees.maxFeePerGas,
      maxPriorityFeePerGas: input.fees.maxPriorityFeePerGas,
    });
    const [stored] = await tx
      .insert(evmPayouts)
      .values({
        reference: input.reference,
        network: network.network,
        currency: call.currency,
        fromAddress: from,
        toAddress: call.recipient,
        baseAmount: call.baseAmount,
        nonce,
        maxFeePerGas: input.fees.maxFeePerGas,
        gasLimit: input.gasLimit,
        rawTransaction: raw,
        txHash: keccak256(raw),
      })
      .returning();
    return stored!;
  });
}
