import "server-only";

import { eq, sql } from "drizzle-orm";
import { queryRows, type Tx } from "@/lib/db/client";
import { depositAddresses } from "@/lib/db/schema";

/**
 * A transfer to a deposit address in a currency it was not handed out for (USDT sent to a USDC or
 * an ETH address): no deposit can take it and nothing is credited, but the customer's money is at
 * an address Kassa holds, so an operator must see it: an incident row (`cli chain incidents`) and a
 * loud log line, once per chain transaction. Returns whether it was recorded now (false, too, when
 * the address was handed out for this currency after all, or the transfer is Kassa's own gas top-up).
 */
export async function recordUnmatchedPayment(
  tx: Tx,
  input: {
    network: string;
    chainTransactionId: number;
    currency: string;
    address: string;
    baseUnits: bigint;
    txid: string;
    logIndex: number;
    blockNumber: bigint;
    blockHash: string;
  },
): Promise<boolean> {
  const handedOut = await tx
    .selectDistinct({ currency: depositAddresses.currency })
    .from(depositAddresses)
    .where(eq(depositAddresses.address, input.address));
  if (handedOut.some((a) => a.currency === input.currency)) return false;
  // Kassa's own gas top-up for a token sweep (ETH from the hot wallet to a token's address) is no
  // customer's money: not an incident. Its payout row is stored before it is sent, so it is known.
  const [ownTopUp] = await queryRows<{ reference: string }>(
    tx,
    sql`select reference from evm_payouts
        where network = ${input.network} and reference like 'sweep-gas:%'
          and (lower(tx_hash) = ${input.txid.toLowerCase()} or ${input.txid.toLowerCase()} = any(replaced_hashes))
        limit 1`,
  );
  if (ownTopUp) return false;
  const message = `${input.currency} transfer ${input.txid} (log ${input.logIndex}) of ${input.baseUnits} base units to ${input.address}, which was handed out for ${handedOut.map((a) => a.currency).join(", ") || "another currency"}: not credited, the funds sit at that address`;
  // Raw: ON CONFLICT must name the partial unique index's predicate, which the query builder cannot.
  const inserted = await queryRows<{ id: string | number }>(
    tx,
    sql`insert into chain_incidents (network, kind, chain_transaction_id, block_number, block_hash, message)
        values (${input.network}, 'unmatched_currency', ${input.chainTransactionId},
          ${input.blockNumber.toString()}, ${input.blockHash}, ${message})
        on conflict (kind, chain_transaction_id) where deposit_id is null do nothing returning id`,
  );
  if (inserted.length === 0) return false;
  console.error(`[chain] INCIDENT ${input.network}: ${message}`);
  return true;
}
