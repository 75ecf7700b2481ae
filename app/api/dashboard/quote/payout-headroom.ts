import "server-only";

import { getCurrency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import { readBalance } from "@/lib/ledger/read-balance";
import { SCALE } from "@/lib/money";
import type { Pricing } from "@/lib/rates/pricing";
import { priceWithdrawal, type WithdrawalPrice } from "@/lib/withdrawals/price-withdrawal";

async function priceOrNull(
  db: Executor,
  input: { merchantId: number; source: string; target: string; amount: bigint; pricing: Pricing },
) {
  try {
    return await priceWithdrawal(db, input);
  } catch (error) {
    // Below a minimum, or a conversion unavailable: no payout of this size is possible.
    if (error instanceof KassaError && error.code === "validation_failed") return null;
    throw error;
  }
}

/**
 * The payout form's "Max": the largest amount (source currency, to debit) whose withdrawal fee and
 * network fee still fit the balance, priced by the same priceWithdrawal as the payout itself. The fee
 * is a percentage of the amount plus a fixed network fee, so the amount is solved for once and then
 * lowered a smallest unit at a time while rounding (fees round up) still makes the debit exceed the
 * balance. Null when even the smallest payout does not fit.
 */
export async function maxPayout(
  db: Executor,
  input: { merchantId: number; source: string; target: string; pricing: Pricing },
): Promise<{ available: bigint; price: WithdrawalPrice | null }> {
  const available = await readBalance(db, { merchantId: input.merchantId, currency: input.source });
  const atBalance = await priceOrNull(db, { ...input, amount: available });
  if (!atBalance) return { available, price: null };
  if (atBalance.totalDebit <= available) return { available, price: atBalance };
  const source = getCurrency(input.source);
  const step = 10n ** BigInt(SCALE - source.precision);
  const room = available - atBalance.networkFee;
  if (room <= 0n) return { available, price: null };
  let amount = ((room * 1_000_000n) / (1_000_000n + BigInt(source.withdrawalFeePpm)) / step) * step;
  // Rounding of the fees can leave the debit a few smallest units over; a handful of steps at most.
  for (let tries = 0; tries < 16 && amount > 0n; tries++) {
    const price = await priceOrNull(db, { ...input, amount });
    if (!price) return { available, price: null };
    if (price.totalDebit <= available) return { available, price };
    amount -= step;
  }
  return { available, price: null };
}
