import "server-only";

import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { evmHotWallets, evmPayouts } from "@/lib/db/schema";

/**
 * In the caller's transaction, moves the hot wallet's nonce counter (store-signed-payout.ts) past a nonce
 * the operator spent by hand (a compliance refund), or the next payout would reuse it and never be mined.
 * A wallet with no row yet needs nothing. Returns the reference of an unmined payout already signed with
 * that nonce, which can now never be mined (docs/OPERATIONS.md, "Rejected payments").
 */
export async function advanceHotWalletNonce(
  tx: Tx,
  input: { network: string; address: string; nonce: number },
): Promise<string | undefined> {
  const address = input.address.toLowerCase();
  await tx
    .update(evmHotWallets)
    .set({ nextNonce: sql`greatest(${evmHotWallets.nextNonce}, ${BigInt(input.nonce) + 1n})` })
    .where(and(eq(evmHotWallets.network, input.network), eq(evmHotWallets.address, address)));
  const [clash] = await tx
    .select({ reference: evmPayouts.reference })
    .from(evmPayouts)
    .where(
      and(
        eq(evmPayouts.network, input.network),
        eq(evmPayouts.fromAddress, address),
        eq(evmPayouts.nonce, BigInt(input.nonce)),
        eq(evmPayouts.status, "signed"),
      ),
    );
  return clash?.reference;
}
