import "server-only";

import { and, eq } from "drizzle-orm";
import { keccak256 } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import type { Db } from "@/lib/db/client";
import { evmSweeps } from "@/lib/db/schema";
import type { PayoutFees } from "../payout/estimate-fees";

export type StoredSweep = typeof evmSweeps.$inferSelect;

/**
 * Signs a sweep with the deposit address's key and stores it under the address's nonce before
 * anything is sent. A second signer for the same nonce (another worker, a retry) inserts nothing
 * and gets the stored sweep back, so one nonce is only ever signed into one sweep.
 */
export async function storeSignedSweep(
  db: Db,
  input: {
    network: string;
    chainId: number;
    depositAddressId: number;
    currency: string;
    account: PrivateKeyAccount;
    nonce: number;
    to: `0x${string}`;
    value: bigint;
    data: `0x${string}` | undefined;
    recipient: `0x${string}`;
    baseAmount: bigint;
    gasLimit: bigint;
    fees: PayoutFees;
  },
): Promise<StoredSweep> {
  const from = input.account.address.toLowerCase();
  const raw = await input.account.signTransaction({
    type: "eip1559",
    chainId: input.chainId,
    nonce: input.nonce,
    to: input.to,
    value: input.value,
    data: input.data,
    gas: input.gasLimit,
    maxFeePerGas: input.fees.maxFeePerGas,
    maxPriorityFeePerGas: input.fees.maxPriorityFeePerGas,
  });
  const [inserted] = await db
    .insert(evmSweeps)
    .values({
      network: input.network,
      currency: input.currency,
      depositAddressId: input.depositAddressId,
      fromAddress: from,
      toAddress: input.recipient.toLowerCase(),
      baseAmount: input.baseAmount,
      nonce: BigInt(input.nonce),
      maxFeePerGas: input.fees.maxFeePerGas,
      gasLimit: input.gasLimit,
      rawTransaction: raw,
      txHash: keccak256(raw),
    })
    .onConflictDoNothing()
    .returning();
  if (inserted) return inserted;
  const [existing] = await db
    .select()
    .from(evmSweeps)
    .where(
      and(
        eq(evmSweeps.network, input.network),
        eq(evmSweeps.fromAddress, from),
        eq(evmSweeps.nonce, BigInt(input.nonce)),
      ),
    );
  return existing!;
}
