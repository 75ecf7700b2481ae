import "server-only";

import { hex } from "@scure/base";
import { Transaction } from "@scure/btc-signer";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { utxoPayoutOutputs, utxoPayouts } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import type { UtxoNetwork } from "../utxo-network";
import type { StoredUtxoPayout } from "./sign-utxo-payout";

/** The first input of the payout the node no longer has unspent (`gettxout`, mempool included), if any. */
export async function findSpentInput(
  network: UtxoNetwork,
  payout: StoredUtxoPayout,
): Promise<string | undefined> {
  const transaction = Transaction.fromRaw(hex.decode(payout.rawTransaction));
  for (let i = 0; i < transaction.inputsLength; i++) {
    const input = transaction.getInput(i);
    const outpoint = { txid: hex.encode(input.txid!), vout: input.index! };
    const unspent = await network.rpc.call<unknown>("gettxout", [outpoint.txid, outpoint.vout, true]);
    if (unspent === null) return `${outpoint.txid}:${outpoint.vout}`;
  }
  return undefined;
}

/**
 * A payout none of whose versions the node knows, and one of whose inputs the chain spent elsewhere
 * (a reorganisation or a double spend took a payment it spends): it can never be mined. It becomes
 * an `incident` (the tracker stops sending it) with a chain incident for the operator, in one
 * transaction. Its withdrawals stay `sending`: never refunded or paid again automatically, since
 * only a person can tell what the merchant and the payee are owed now.
 */
export async function recordPayoutIncident(
  db: Db,
  input: { network: UtxoNetwork; payout: StoredUtxoPayout; spentInput: string },
): Promise<boolean> {
  const { network, payout } = input;
  return inTransaction(db, async (tx) => {
    const [marked] = await tx
      .update(utxoPayouts)
      .set({ status: "incident" })
      .where(and(eq(utxoPayouts.id, payout.id), eq(utxoPayouts.status, "signed")))
      .returning({ id: utxoPayouts.id });
    if (!marked) return false;
    const paid = await tx
      .select({ reference: utxoPayoutOutputs.reference })
      .from(utxoPayoutOutputs)
      .where(eq(utxoPayoutOutputs.payoutId, payout.id));
    const what = paid.length ? paid.map((p) => p.reference.replace(":", " ")).join(", ") : "a consolidation";
    const message =
      `${network.currency} payout ${payout.txid} (${what}) can never be mined: its input ${input.spentInput} was spent elsewhere ` +
      "(a reorganisation or a double spend took a payment it spends). Nothing was sent twice; its withdrawals stay " +
      "`sending` until an operator settles them.";
    await tx.execute(
      sql`insert into chain_incidents (network, kind, utxo_payout_id, message)
          values (${network.network}, 'payout_inputs_spent', ${payout.id}, ${message})
          on conflict do nothing`,
    );
    console.warn(`[chain] INCIDENT: ${message}`);
    return true;
  });
}
