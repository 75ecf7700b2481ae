import "server-only";

import { and, eq } from "drizzle-orm";
import type { AccountKeys } from "@/lib/chain/account-keys";
import { allocateDepositAddress, type DepositAddressRow } from "@/lib/chain/allocate-deposit-address";
import { assertCustomerIdentity } from "@/lib/customers/assert-customer-identity";
import type { Db, Executor } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { depositAddresses } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError } from "@/lib/errors";
import type { Sender } from "@/lib/schemas/common";

export type TakeAddressInput = {
  merchantId: number;
  foreignId: string;
  currency: string;
  convertTo?: string;
  customer?: { endUserReference: string } & Sender;
  /** The API key taking it: a new address keeps it, and its deposits' callbacks are signed by it. */
  apiKeyId?: number;
};

async function findPermanent(db: Executor, input: TakeAddressInput) {
  const [row] = await db
    .select()
    .from(depositAddresses)
    .where(
      and(
        eq(depositAddresses.merchantId, input.merchantId),
        eq(depositAddresses.currency, input.currency),
        eq(depositAddresses.foreignId, input.foreignId),
        eq(depositAddresses.kind, "permanent"),
      ),
    );
  return row;
}

/**
 * A permanent deposit address per customer (`foreign_id`) and currency: the first call derives a
 * new one, later calls return it. The `end_user_reference` it was first taken with is kept on it, so
 * its deposits report it; a later call naming a different one is refused. Two racing first calls create one address (a unique index) and
 * both answer it.
 */
export async function takeAddress(
  db: Db,
  keys: AccountKeys,
  input: TakeAddressInput,
): Promise<DepositAddressRow> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return await inTransaction(db, async (tx) => {
        if (input.customer)
          await assertCustomerIdentity(tx, { merchantId: input.merchantId, ...input.customer });
        const existing = await findPermanent(tx, input);
        const reference = input.customer?.endUserReference;
        if (existing) {
          if ((existing.convertTo ?? undefined) !== input.convertTo) {
            throw fieldError({
              convert_to: `This customer's ${input.currency} address converts to ${existing.convertTo ?? "nothing"}; it cannot change.`,
            });
          }
          if (!reference || existing.endUserReference === reference) return existing;
          // One address, one customer: a reference is recorded once (taken before without one, it is now).
          if (existing.endUserReference !== null)
            throw fieldError({
              end_user_reference: `This address was taken for another end_user_reference (${existing.endUserReference}); it cannot change.`,
            });
          const [updated] = await tx
            .update(depositAddresses)
            .set({ endUserReference: reference })
            .where(eq(depositAddresses.id, existing.id))
            .returning();
          return updated!;
        }
        return allocateDepositAddress(tx, keys, {
          merchantId: input.merchantId,
          currency: input.currency,
          kind: "permanent",
          foreignId: input.foreignId,
          convertTo: input.convertTo,
          endUserReference: reference,
          apiKeyId: input.apiKeyId,
        });
      });
    } catch (error) {
      if (!isUniqueViolation(error, "deposit_addresses_permanent_key")) throw error;
    }
  }
  const winner = await findPermanent(db, input);
  if (!winner) throw new Error("permanent address vanished after a conflict");
  return winner;
}
