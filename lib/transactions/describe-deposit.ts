import "server-only";

import { eq } from "drizzle-orm";
import { getCurrency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { depositAddresses, transactions } from "@/lib/db/schema";
import { computeCredit } from "@/lib/deposits/compute-credit";
import { BELOW_MINIMUM_ERROR } from "@/lib/deposits/hold-below-minimum";
import { formatAmount, parseStoredAmount } from "@/lib/money";
import { formatRate, IDENTITY_RATE } from "@/lib/rates/rate";
import type { TransactionInfo } from "@/lib/schemas/transactions";
import { loadPaymentsAndFees } from "./load-payments-and-fees";
import { wireStatus } from "./wire-status";

/**
 * transactions/info for a payment to a permanent address: what was sent, what it credits (known
 * once its rate was fixed, so a converting deposit's `not_confirmed` callback carries
 * `currency_received` too), and the exchange when the address converts. A deposit below the
 * currency's minimum is `cancelled` on the wire with the public API's error text and no
 * `currency_received`: it was held, not credited.
 */
export async function describeDeposit(db: Executor, id: number): Promise<TransactionInfo> {
  const [transaction] = await db.select().from(transactions).where(eq(transactions.id, id));
  const details = transaction!.details as {
    deposit_address_id: number;
    rate?: string;
    fee?: string;
    net?: string;
  };
  const [address] = await db
    .select()
    .from(depositAddresses)
    .where(eq(depositAddresses.id, details.deposit_address_id));
  const { payments, paymentRates } = await loadPaymentsAndFees(db, id);
  const payment = payments[0]!;
  const seen = paymentRates[0]!;
  const creditCurrency = address!.convertTo ?? address!.currency;
  const status = wireStatus(transaction!.status);
  const isCredited = transaction!.status === "confirmed";
  // Below the minimum: held, never credited, so nothing was received (lib/deposits/hold-below-minimum.ts).
  const isHeld = transaction!.status === "below_minimum";
  // Before confirmation the amounts are known when the payment's rate was fixed as it was seen.
  const rate = seen.rate ?? (creditCurrency === address!.currency ? IDENTITY_RATE : null);
  const credit = isHeld
    ? undefined
    : isCredited
      ? {
          gross: transaction!.amount!,
          fee: parseStoredAmount(details.fee!),
          net: parseStoredAmount(details.net!),
        }
      : rate
        ? computeCredit({
            parts: [{ amount: seen.amount, rate }],
            payCurrency: address!.currency,
            creditCurrency,
          })
        : undefined;
  const entries = [...payments];
  if (address!.convertTo && isCredited) {
    entries.push({
      id,
      currency: address!.currency,
      currency_to: creditCurrency,
      transaction_type: "exchange",
      type: "exchange",
      amount: payment.amount,
      amount_to: formatAmount(credit!.gross),
    });
  }
  return {
    id,
    ...(transaction!.endUserReference !== null && { end_user_reference: transaction!.endUserReference }),
    type: address!.convertTo ? "deposit_exchange" : "deposit",
    crypto_address: {
      id: address!.id,
      currency: address!.currency,
      ...(address!.convertTo && { convert_to: address!.convertTo }),
      address: address!.address,
      foreign_id: address!.foreignId,
      tag: address!.tag || null,
    },
    currency_sent: { currency: address!.currency, amount: payment.amount },
    ...(credit && {
      currency_received: {
        currency: creditCurrency,
        amount: formatAmount(credit.gross),
        amount_minus_fee: formatAmount(credit.net),
      },
    }),
    transactions: entries,
    fees: isCredited
      ? [
          {
            type: address!.convertTo ? "exchange" : "deposit",
            currency: creditCurrency,
            amount: formatAmount(credit!.fee),
          },
        ]
      : [],
    error: isHeld ? BELOW_MINIMUM_ERROR : "",
    status,
    // What the merchant needs to tell the sender why it was not credited.
    ...(isHeld && {
      additional_details: {
        status: "below_minimum",
        minimum_amount: formatAmount(getCurrency(address!.currency).minimumAmount),
      },
    }),
    ...((details.rate || seen.rate) && {
      additional_details: {
        rate: details.rate ?? (seen.rate ? formatRate(seen.rate) : null),
        payments: [seen.details],
      },
    }),
  };
}
