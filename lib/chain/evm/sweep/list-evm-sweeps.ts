import "server-only";

import { desc, like } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { evmPayouts, evmSweeps } from "@/lib/db/schema";

export type SweepView = {
  id: number;
  currency: string;
  deposit_address_id: number;
  from: string;
  to: string;
  /** Base units (wei, token units), exact. */
  amount: string;
  tx_hash: string;
  status: string;
  /** The gas really paid, in wei, once mined. */
  fee_paid: string | null;
  created_at: string;
};

export type GasTopUpView = {
  reference: string;
  to: string;
  amount: string;
  tx_hash: string;
  status: string;
  fee_paid: string | null;
};

/** The sweeps (newest first) and the gas top-ups sent for token sweeps, for `cli chain sweeps`. */
export async function listEvmSweeps(
  db: Executor,
): Promise<{ sweeps: SweepView[]; gas_top_ups: GasTopUpView[] }> {
  const sweeps = await db.select().from(evmSweeps).orderBy(desc(evmSweeps.id));
  const topUps = await db
    .select()
    .from(evmPayouts)
    .where(like(evmPayouts.reference, "sweep-gas:%"))
    .orderBy(desc(evmPayouts.createdAt));
  return {
    sweeps: sweeps.map((s) => ({
      id: s.id,
      currency: s.currency,
      deposit_address_id: s.depositAddressId,
      from: s.fromAddress,
      to: s.toAddress,
      amount: s.baseAmount.toString(),
      tx_hash: s.txHash,
      status: s.status,
      fee_paid: s.feePaid?.toString() ?? null,
      created_at: s.createdAt.toISOString(),
    })),
    gas_top_ups: topUps.map((p) => ({
      reference: p.reference,
      to: p.toAddress,
      amount: p.baseAmount.toString(),
      tx_hash: p.txHash,
      status: p.status,
      fee_paid: p.feePaid?.toString() ?? null,
    })),
  };
}
