import "server-only";

import { and, eq, ne, sql } from "drizzle-orm";
import { queueCallback } from "@/lib/callbacks/queue-callback";
import { systemClock } from "@/lib/clock";
import { getCurrency } from "@/lib/currencies/registry";
import type { Tx } from "@/lib/db/client";
import { amountSql, depositAddresses, deposits, invoices, transactions } from "@/lib/db/schema";
import { fieldError } from "@/lib/errors";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { setInvoiceStatus } from "@/lib/invoices/set-invoice-status";
import { fitsCap } from "@/lib/money";
import { recordCreated } from "@/lib/transactions/transition-status";
import { announceBelowMinimum } from "./announce-below-minimum";
import { assertCreditFits } from "./assert-credit-fits";
import { paymentRateSettings } from "./payment-rate-settings";
import {
  type PaymentRateSettings,
  type PaymentRates,
  rateAddressPayment,
  rateInvoicePayment,
} from "./rate-payment";

export type IncomingPayment = {
  chainTransactionId: number;
  currency: string;
  address: string;
  tag: string;
  amount: bigint;
  /** When the payment was made: its block's time on a real chain (the watcher may read it much later); now otherwise. */
  seenAt?: Date;
};

export type RecordedPayment = { depositId: number; transactionId: number; isLate: boolean };

/**
 * The watcher's entry point: a chain adapter reports a payment it saw to an address. If the address
 * is ours, the payment is recorded once with the rates that will credit it (fixed now), and its
 * invoice moves to `processing` (a permanent address's becomes a `deposit`; one below the minimum is
 * held). `isCapEnforced` (the sandbox) refuses one past the amount cap.
 * docs/decisions/payment-rates-and-crediting.md.
 */
export async function recordIncomingPayment(
  tx: Tx,
  payment: IncomingPayment,
  options: { settings?: PaymentRateSettings; isCapEnforced?: boolean } = {},
): Promise<RecordedPayment | null> {
  const settings = options.settings ?? paymentRateSettings();
  const now = payment.seenAt ?? (settings.clock ?? systemClock).now();
  const [address] = await tx
    .select()
    .from(depositAddresses)
    .where(
      and(
        eq(depositAddresses.currency, payment.currency),
        eq(depositAddresses.address, payment.address),
        eq(depositAddresses.tag, payment.tag),
      ),
    );
  if (!address) return null;
  const [seen] = await tx
    .select({ id: deposits.id })
    .from(deposits)
    .where(and(eq(deposits.chainTransactionId, payment.chainTransactionId), ne(deposits.status, "unwound")));
  if (seen) return null; // reported before (the unique index guards a race between two watchers)

  const isBelowMinimum =
    address.kind === "permanent" && payment.amount < getCurrency(payment.currency).minimumAmount;
  let transactionId: number;
  let isLate = false;
  let isOtherCurrency = false;
  let rates: PaymentRates;
  if (address.kind === "invoice") {
    const invoice = await loadInvoiceById(tx, address.invoiceId!, true);
    if (!invoice) throw new Error(`deposit address ${address.id} has no invoice`);
    transactionId = invoice.id;
    isLate = invoice.status !== "pending" && invoice.status !== "processing";
    // Sent to an address shown before the customer switched coins: the invoice's paid sums are in
    // its current pay currency, so this one is not added to them; it converts at the rate of its
    // moment and the invoice is judged by value (lib/invoices/judge-payments.ts). Nothing is lost.
    isOtherCurrency = payment.currency !== invoice.invoice.senderCurrency;
    if (options.isCapEnforced && !isOtherCurrency && !fitsCap(invoice.invoice.paidAmount + payment.amount))
      throw fieldError({
        amount: "This payment would take the invoice's paid amount past the largest amount Kassa keeps.",
      });
    rates = isOtherCurrency
      ? await rateAddressPayment(tx, {
          merchantId: address.merchantId,
          payCurrency: payment.currency,
          creditCurrency: invoice.currency,
          settings,
        })
      : await rateInvoicePayment(tx, {
          record: invoice,
          amount: payment.amount,
          paidBefore: invoice.invoice.paidAmount,
          now,
          settings,
        });
    if (options.isCapEnforced)
      await assertCreditFits(tx, {
        merchantId: address.merchantId,
        payCurrency: payment.currency,
        creditCurrency: invoice.currency,
        amount: payment.amount,
        rates,
        pricing: settings.pricing,
      });
  } else {
    const creditCurrency = address.convertTo ?? payment.currency;
    // Below the currency's minimum deposit it is held, never credited or converted (lib/deposits/hold-below-minimum.ts).
    rates = isBelowMinimum
      ? { lockedAmount: 0n, lockedRate: null, rate: null }
      : await rateAddressPayment(tx, {
          merchantId: address.merchantId,
          payCurrency: payment.currency,
          creditCurrency,
          settings,
        });
    if (options.isCapEnforced && !isBelowMinimum)
      await assertCreditFits(tx, {
        merchantId: address.merchantId,
        payCurrency: payment.currency,
        creditCurrency,
        amount: payment.amount,
        rates,
        pricing: settings.pricing,
      });
    const status = isBelowMinimum ? "below_minimum" : "processing";
    const [created] = await tx
      .insert(transactions)
      .values({
        merchantId: address.merchantId,
        type: "deposit",
        status,
        endUserReference: address.endUserReference,
        currency: address.convertTo ?? payment.currency,
        amount: null,
        details: { deposit_address_id: address.id },
        // The key that took the address signs its deposits' callbacks.
        apiKeyId: address.apiKeyId,
      })
      .returning({ id: transactions.id });
    transactionId = created!.id;
    await recordCreated(tx, {
      transactionId,
      merchantId: address.merchantId,
      status,
      reason: "payment_seen",
    });
  }

  const [inserted] = await tx
    .insert(deposits)
    .values({
      merchantId: address.merchantId,
      depositAddressId: address.id,
      transactionId,
      chainTransactionId: payment.chainTransactionId,
      currency: payment.currency,
      amount: payment.amount,
      isLate,
      lockedAmount: rates.lockedAmount,
      lockedRateNumerator: rates.lockedRate?.numerator ?? null,
      lockedRateDenominator: rates.lockedRate?.denominator ?? null,
      rateNumerator: rates.rate?.numerator ?? null,
      rateDenominator: rates.rate?.denominator ?? null,
    })
    .returning({ id: deposits.id });

  if (address.kind === "invoice") {
    if (!isOtherCurrency)
      await tx
        .update(invoices)
        .set({ paidAmount: sql`${invoices.paidAmount} + ${amountSql(payment.amount)}` })
        .where(eq(invoices.transactionId, transactionId));
    const invoice = await loadInvoiceById(tx, transactionId);
    if (invoice?.status === "pending")
      await setInvoiceStatus(tx, transactionId, "processing", "payment_seen");
  }
  if (isBelowMinimum) await announceBelowMinimum(tx, { merchantId: address.merchantId, transactionId });
  else if (address.kind === "permanent") await queueCallback(tx, { transactionId, status: "processing" });
  return { depositId: inserted!.id, transactionId, isLate };
}
