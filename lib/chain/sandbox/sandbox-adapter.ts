import "server-only";

import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { getCurrency } from "@/lib/currencies/registry";
import type { Db } from "@/lib/db/client";
import { chainTransactions } from "@/lib/db/schema";
import type { ChainAdapter } from "../adapter";

/**
 * Well-known burn addresses: valid on their networks, owned by nobody. The sandbox network refuses
 * payouts to them, which is how tests and demos play out a withdrawal the network rejects.
 */
export const SANDBOX_REFUSED_ADDRESSES: Record<string, string> = {
  "1BitcoinEaterAddressDontSendf59kuE": "the address is a known burn address",
  "0x000000000000000000000000000000000000dEaD": "the address is a known burn address",
  T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb: "the address is the network's zero address",
  rrrrrrrrrrrrrrrrrrrrrhoLvTp: "the address is the network's zero account",
};

/** The sandbox's txid for a payout: derived from its reference, which makes broadcasting idempotent. */
function sandboxTxid(reference: string, currencyCode: string): string {
  const hash = createHash("sha256").update(`kassa-sandbox:${reference}`).digest("hex");
  return getCurrency(currencyCode).network === "ethereum" ? `0x${hash}` : hash;
}

async function findOutgoing(db: Db, currency: string, txid: string) {
  const [row] = await db
    .select({ id: chainTransactions.id })
    .from(chainTransactions)
    .where(and(eq(chainTransactions.currency, currency), eq(chainTransactions.txid, txid)));
  return row;
}

/** The sandbox chain as a ChainAdapter: payouts go into the currency's mempool. */
export const sandboxAdapter: ChainAdapter = {
  broadcast: async (db, request) => {
    const refusal = SANDBOX_REFUSED_ADDRESSES[request.address];
    if (refusal) return { isAccepted: false, reason: `The network refused the transaction: ${refusal}.` };
    const currency = getCurrency(request.currency).code;
    const txid = sandboxTxid(request.reference, currency);
    await db
      .insert(chainTransactions)
      .values({
        currency,
        txid,
        address: request.address,
        tag: request.tag ?? "",
        amount: request.amount,
        direction: "out",
      })
      .onConflictDoNothing();
    const row = await findOutgoing(db, currency, txid);
    return { isAccepted: true, txid, chainTransactionId: row?.id ?? null };
  },
  lookUpBroadcast: async (db, request) => {
    const currency = getCurrency(request.currency).code;
    const txid = sandboxTxid(request.reference, currency);
    const row = await findOutgoing(db, currency, txid);
    return row ? { isBroadcast: true, txid, chainTransactionId: row.id } : { isBroadcast: false };
  },
};
