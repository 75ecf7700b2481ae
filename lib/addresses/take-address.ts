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
 * new one, later calls return it. Two racing first calls create one address (a unique index) and
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
        if (existing) {
          if ((existing.convertTo ?? undefined) !== input.convertTo) {
            throw fieldError({
              convert_to: `This customer's ${input.currency} address converts to ${existing.convertTo ?? "nothing"}; it cannot change.`,
            });
          }
          return existing;
        }
        return allocateDepositAddress(tx, keys, {
          merchantId: input.merchantId,
          currency: input.currency,
          kind: "permanent",
          foreignId: input.foreignId,
          convertTo: input.convertTo,
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
