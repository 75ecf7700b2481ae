import "server-only";

import { and, count, desc, eq } from "drizzle-orm";
import { queueCallback } from "@/lib/callbacks/queue-callback";
import type { AccountKeys } from "@/lib/chain/account-keys";
import { allocateDepositAddress } from "@/lib/chain/allocate-deposit-address";
import { systemClock } from "@/lib/clock";
import type { Tx } from "@/lib/db/client";
import { depositAddresses, invoices, transactionEvents } from "@/lib/db/schema";
import { fieldError } from "@/lib/errors";
import { recordChange } from "@/lib/transactions/record-change";
import type { InvoiceSettings } from "./create-invoice";
import { hasSeenPayment } from "./has-seen-payment";
import { type InvoiceRecord, loadInvoiceById } from "./load-invoice";
import { priceInvoice } from "./price-invoice";
import { scheduleRepricing } from "./reprice-invoice";

/**
 * "Pay with another currency": a customer who chose a coin picks another before paying, in the
 * caller's transaction on the invoice row it holds locked (FOR UPDATE). Priced afresh, a timer's
 * deadline kept, bounded by MAX_CURRENCY_SWITCHES: docs/decisions/currency-switch.md.
 */
/** Switches one invoice may make: plenty for a customer comparing coins, few callbacks for a flipper. */
export const MAX_CURRENCY_SWITCHES = 10;

export async function switchInvoiceCurrencyIn(
  tx: Tx,
  record: InvoiceRecord,
  input: { currency: string; settings: InvoiceSettings; keys: AccountKeys },
): Promise<InvoiceRecord> {
  const { invoice } = record;
  if (!record.isCurrencyChosenByCustomer)
    throw fieldError({
      currency: `This invoice is paid in ${invoice.senderCurrency}; the currency cannot be changed.`,
    });
  if (record.status === "processing" || (await hasSeenPayment(tx, record.id)))
    throw fieldError({
      currency: "A payment to this invoice was already seen, so its currency can no longer be changed.",
    });
  if (record.status !== "pending") throw fieldError({ currency: "This invoice can no longer be paid." });
  const now = (input.settings.clock ?? systemClock).now();
  if (invoice.expiresAt && invoice.expiresAt <= now)
    throw fieldError({ currency: "This invoice has expired." });

  const [switches] = await tx
    .select({ n: count() })
    .from(transactionEvents)
    .where(
      and(eq(transactionEvents.transactionId, record.id), eq(transactionEvents.reason, "currency_switched")),
    );
  if ((switches?.n ?? 0) >= MAX_CURRENCY_SWITCHES)
    throw fieldError({
      currency: `The currency of this invoice was already changed ${MAX_CURRENCY_SWITCHES} times; it cannot be changed again. Pay in ${invoice.senderCurrency}.`,
    });

  const price = await priceInvoice(tx, {
    merchantId: record.merchantId,
    invoiceCurrency: record.currency,
    amount: record.amount,
    payCurrency: input.currency,
    pricing: input.settings.pricing,
    field: "currency",
  });
  const [earlier] = await tx
    .select()
    .from(depositAddresses)
    .where(and(eq(depositAddresses.invoiceId, record.id), eq(depositAddresses.currency, input.currency)))
    .orderBy(desc(depositAddresses.id))
    .limit(1);
  const address =
    earlier ??
    (await allocateDepositAddress(tx, input.keys, {
      merchantId: record.merchantId,
      currency: input.currency,
      kind: "invoice",
      invoiceId: record.id,
    }));
  await tx
    .update(invoices)
    .set({
      senderCurrency: input.currency,
      senderAmount: price.senderAmount,
      rateNumerator: price.rate.numerator,
      rateDenominator: price.rate.denominator,
      spreadPpm: price.spreadPpm,
      // With a timer `fixed_at` is when its clock started and the lock ends with it; without one
      // the new rate gets a lock of its own from now.
      fixedAt: invoice.hasTimer ? invoice.fixedAt : now,
      depositAddressId: address.id,
      statusReason: "currency_switched",
    })
    .where(eq(invoices.transactionId, record.id));
  await recordChange(tx, record.id, {
    merchantId: record.merchantId,
    from: "pending",
    to: "pending",
    reason: "currency_switched",
  });
  await queueCallback(tx, { transactionId: record.id, status: "pending" });
  const switched = (await loadInvoiceById(tx, record.id, true))!;
  await scheduleRepricing(tx, switched, input.settings);
  return switched;
}
