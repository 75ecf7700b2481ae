import "server-only";

import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { evmHotWallets, evmPayouts } from "@/lib/db/schema";

/**
 * Accounts for a transaction the operator sent from the hot wallet by hand (a compliance refund), in
 * the caller's transaction: Kassa allocates the hot wallet's nonces from the database
 * (store-signed-payout.ts), so a nonce spent outside it must move the counter past it, or the next
 * payout would be signed with a nonce the chain already used and never be mined. A wallet with no
 * row yet has signed nothing: its first payout reads the node's count, which includes this one.
 * Returns the reference of a payout Kassa had already signed with the same nonce and that is not
 * mined: that one can no longer be (docs/OPERATIONS.md, "Rejected payments").
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
