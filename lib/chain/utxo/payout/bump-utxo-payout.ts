import "server-only";

import { and, eq, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { utxoPayouts } from "@/lib/db/schema";
import { fieldError } from "@/lib/errors";
import type { UtxoNetwork } from "../utxo-network";
import type { FeeRatePolicy } from "./payout-fee-rate";
import { replaceUtxoPayout } from "./replace-utxo-payout";
import { findMinedVersion } from "./track-utxo-payouts";

/**
 * The operator's fee bump (`cli chain bump`): the open payout whose current or earlier version is
 * `txid` is replaced by fee now, at `feeRate` (base units per virtual byte) or the node's estimate,
 * under the same rules as the automatic replacement. Refused, with the reason, when the payout is
 * unknown, settled, already mined, or cannot pay more.
 */
export async function bumpUtxoPayout(
  db: Db,
  input: { network: UtxoNetwork; txid: string; seed: Uint8Array; policy: FeeRatePolicy; feeRate?: bigint },
) {
  const { network } = input;
  if (!/^[0-9a-f]{64}$/.test(input.txid))
    throw fieldError({ txid: "A transaction id is 64 lower-case hexadecimal characters." });
  const [payout] = await db
    .select()
    .from(utxoPayouts)
    .where(
      and(
        eq(utxoPayouts.network, network.network),
        or(
          eq(utxoPayouts.txid, input.txid),
          sql`${utxoPayouts.replaced} @> ${JSON.stringify([{ txid: input.txid }])}::jsonb`,
        ),
      ),
    );
  if (!payout)
    throw fieldError({ txid: `No ${network.currency} payout of Kassa's has the transaction ${input.txid}.` });
  if (payout.status !== "signed")
    throw fieldError({ txid: `The payout ${payout.txid} is already confirmed.` });
  const { mined } = await findMinedVersion(network, payout);
  if (mined)
    throw fieldError({
      txid: `The payout is already mined (${mined.version?.txid ?? payout.txid}, ${mined.confirmations} confirmations): it cannot be replaced.`,
    });
  const outcome = await replaceUtxoPayout(db, {
    network,
    payout,
    seed: input.seed,
    policy: input.policy,
    feeRate: input.feeRate,
  });
  if (outcome.kind === "refused")
    throw fieldError({ txid: `The payout cannot be bumped: ${outcome.reason}.` });
  return {
    txid: outcome.payout.txid,
    replaced_txid: outcome.previousTxid,
    fee_rate: Number(outcome.payout.feeRate),
    fee: outcome.payout.fee.toString(),
    vsize: outcome.payout.vsize,
  };
}
