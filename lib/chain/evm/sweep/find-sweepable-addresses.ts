import "server-only";

import { sql } from "drizzle-orm";
import { type Executor, queryRows } from "@/lib/db/client";

export type SweepableAddress = { id: number; currency: string; address: `0x${string}`; path: string };

/**
 * The network's deposit addresses that may be swept now: at least one payment credited (its
 * confirmations reached), none still waiting for them (a payment that could yet be reorganised away
 * is not moved), and no sweep of the address on its way. Whether one holds enough to be worth it is
 * read on chain by the caller.
 */
export async function findSweepableAddresses(db: Executor, network: string): Promise<SweepableAddress[]> {
  // Raw: the existence tests across three tables read plainer in SQL than in the builder.
  const rows = await queryRows<{ id: number | string; currency: string; address: string; path: string }>(
    db,
    sql`select a.id, a.currency, lower(a.address) as address, a.derivation_path as path
        from deposit_addresses a
        where a.network = ${network}
          and exists (select 1 from deposits d where d.deposit_address_id = a.id and d.status = 'credited')
          and not exists (select 1 from deposits d where d.deposit_address_id = a.id and d.status = 'seen')
          and not exists (select 1 from evm_sweeps s
                          where s.network = ${network} and s.from_address = lower(a.address) and s.status = 'signed')
        order by a.id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    currency: r.currency,
    address: r.address as `0x${string}`,
    path: r.path,
  }));
}
