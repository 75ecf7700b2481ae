import "server-only";

import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { currencies } from "@/lib/db/schema";
import { CURRENCIES } from "./registry";

/** Writes the registry into the currencies table (foreign keys and SQL reports read it there). */
export async function syncCurrencies(db: Db): Promise<void> {
  const rows = CURRENCIES.map((c) => ({
    code: c.code,
    id: c.id,
    kind: c.kind,
    name: c.name,
    precision: c.precision,
    network: c.network,
    minimumAmount: c.minimumAmount,
    minimumWithdrawalAmount: c.minimumWithdrawalAmount,
    depositFeePpm: c.depositFeePpm,
    withdrawalFeePpm: c.withdrawalFeePpm,
    networkFee: c.networkFee,
    confirmations: c.confirmations,
    tagSupport: c.tagSupport,
    addressFormat: c.addressFormat,
    isVisible: c.isVisible,
  }));
  await db
    .insert(currencies)
    .values(rows)
    .onConflictDoUpdate({
      target: currencies.code,
      set: {
        id: sql`excluded.id`,
        kind: sql`excluded.kind`,
        name: sql`excluded.name`,
        precision: sql`excluded.precision`,
        network: sql`excluded.network`,
        minimumAmount: sql`excluded.minimum_amount`,
        minimumWithdrawalAmount: sql`excluded.minimum_withdrawal_amount`,
        depositFeePpm: sql`excluded.deposit_fee_ppm`,
        withdrawalFeePpm: sql`excluded.withdrawal_fee_ppm`,
        networkFee: sql`excluded.network_fee`,
        confirmations: sql`excluded.confirmations`,
        tagSupport: sql`excluded.tag_support`,
        addressFormat: sql`excluded.address_format`,
        isVisible: sql`excluded.is_visible`,
      },
    });
}
