import "server-only";

import { and, eq, ne } from "drizzle-orm";
import { type Clock, systemClock } from "@/lib/clock";
import { confirmationsOf, isOffered } from "@/lib/currencies/offering";
import { CURRENCIES, getCurrency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { chainTips, chainTransactions, deposits } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import type { InvoiceRecord } from "@/lib/invoices/load-invoice";
import { priceInvoice } from "@/lib/invoices/price-invoice";
import { lockExpiry } from "@/lib/invoices/rate-lock";
import { secondsLeft } from "@/lib/invoices/to-invoice-response";
import { formatAmount } from "@/lib/money";
import type { Pricing } from "@/lib/rates/pricing";
import { formatStoredRate } from "@/lib/rates/rate";
import { TERMINAL_INVOICE_STATUSES } from "@/lib/transactions/statuses";
import { amountsDue } from "./amounts-due";
import { paymentUri } from "./payment-uri";

const seconds = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : null);

/**
 * The invoice as the customer sees it (GET /api/checkout/<token>): what to pay, where, by when,
 * and what has arrived. Nothing about the merchant's customer records (no e-mail, no sender data,
 * no foreign_id). Times come with the server's clock so the page counts down correctly on a device
 * whose clock is wrong.
 */
export async function checkoutView(
  db: Executor,
  record: InvoiceRecord,
  options: { pricing: Pricing; clock?: Clock },
) {
  const now = (options.clock ?? systemClock).now();
  const { invoice } = record;
  const payCurrency = invoice.senderCurrency ? getCurrency(invoice.senderCurrency) : null;
  const payments = await db
    .select({
      txid: chainTransactions.txid,
      amount: deposits.amount,
      currency: deposits.currency,
      status: deposits.status,
      isLate: deposits.isLate,
      height: chainTransactions.blockHeight,
      tip: chainTips.height,
      network: chainTransactions.network,
      confirmations: deposits.confirmations,
      seenAt: deposits.createdAt,
    })
    .from(deposits)
    .innerJoin(chainTransactions, eq(chainTransactions.id, deposits.chainTransactionId))
    .leftJoin(chainTips, eq(chainTips.currency, deposits.currency))
    .where(and(eq(deposits.transactionId, record.id), ne(deposits.status, "unwound")))
    .orderBy(deposits.id);
  // Counted in the coin of the payment still confirming: one sent to an address shown before a
  // switch of coins settles on its own network.
  const confirming = [...payments].reverse().find((p) => p.status === "seen")?.currency ?? payCurrency?.code;
  const required = confirming ? confirmationsOf(confirming) : 0;
  const due = invoice.senderAmount;
  const owed = await amountsDue(db, record);
  // The customer chooses the currency: a `created` invoice, or a timer invoice `pending` since
  // creation whose merchant named none (its clock already runs).
  const isAwaitingCurrency =
    (record.status === "created" || record.status === "pending") &&
    !invoice.senderCurrency &&
    !record.address;
  // A dashboard invoice made without the customer's details asks for them first: no address, no
  // currencies to choose from, until they are given (POST /api/checkout/<token>/customer).
  const needsCustomerDetails =
    invoice.senderType === null && !TERMINAL_INVOICE_STATUSES.includes(record.status);
  const shownAddress = needsCustomerDetails ? null : record.address;
  const currencies =
    isAwaitingCurrency && !needsCustomerDetails ? await currencyChoices(db, record, options.pricing) : [];
  const { rateLockSeconds } = options.pricing;
  // Without a timer a price holds for a while only; the page says until when, rather than showing a
  // new price unannounced once it lapses (lib/checkout/open-checkout.ts re-prices it then).
  const priceHoldsUntil =
    invoice.expiresAt === null && invoice.rateNumerator !== null ? lockExpiry(record, rateLockSeconds) : null;
  // "Pay with another currency": only the customer's own choice, and only before anything was paid.
  const canSwitchCurrency =
    record.status === "pending" &&
    record.address !== null &&
    payments.length === 0 &&
    (invoice.expiresAt === null || invoice.expiresAt > now) &&
    record.isCurrencyChosenByCustomer;
  return {
    token: invoice.token,
    status: record.status,
    status_reason: invoice.statusReason,
    is_final: TERMINAL_INVOICE_STATUSES.includes(record.status),
    is_awaiting_currency: isAwaitingCurrency,
    needs_customer_details: needsCustomerDetails,
    merchant_name: record.merchantName,
    /** Where the customer can write to the merchant (Settings); null when none is set. */
    support_email: record.supportEmail,
    title: invoice.title,
    description: invoice.description,
    type: invoice.type,
    currency: record.currency,
    amount: formatAmount(record.amount),
    sender_currency: invoice.senderCurrency,
    is_currency_fixed_by_merchant: invoice.senderCurrency !== null && record.address === null,
    can_switch_currency: canSwitchCurrency,
    sender_amount: due === null ? null : formatAmount(due),
    rate: formatStoredRate(invoice.rateNumerator, invoice.rateDenominator),
    address: shownAddress?.address ?? null,
    tag: shownAddress?.tag || null,
    tag_name: payCurrency?.tagName ?? null,
    payment_uri:
      shownAddress && due !== null && payCurrency
        ? paymentUri({
            currency: payCurrency.code,
            address: shownAddress.address,
            tag: shownAddress.tag,
            amount: owed && owed.remaining > 0n ? owed.remaining : due,
          })
        : null,
    paid_amount: formatAmount(invoice.paidAmount),
    confirmed_amount: formatAmount(invoice.confirmedAmount),
    remaining_amount: owed === null ? null : formatAmount(owed.remaining),
    overpaid_amount: owed === null ? null : formatAmount(owed.overpaid),
    confirmations_required: required,
    payments: payments.map((p) => ({
      txid: p.txid,
      amount: formatAmount(p.amount),
      // Not the pay currency when sent to an address shown before the customer switched coins.
      currency: p.currency,
      // A real chain's watcher counts confirmations against the node; the sandbox's tip is its own.
      confirmations:
        p.network !== null
          ? p.confirmations
          : p.height === null || p.tip === null
            ? 0
            : Math.max(0, p.tip - p.height + 1),
      is_confirmed: p.status === "credited",
      // Confirmed on the network, but held for the merchant's compliance review before crediting.
      is_held: p.status === "held",
      is_late: p.isLate,
      seen_at: seconds(p.seenAt),
    })),
    currencies,
    fixed_at: seconds(invoice.fixedAt),
    expires_at: seconds(invoice.expiresAt),
    price_holds_until: seconds(priceHoldsUntil),
    rate_lock_seconds: rateLockSeconds,
    seconds_left: secondsLeft(record, now),
    server_time: Math.floor(now.getTime() / 1000),
    // "" when the merchant gave none: no return link is shown.
    url_success: invoice.urlSuccess ?? "",
    url_failed: invoice.urlFailed ?? "",
  };
}

/** The currencies a customer can choose, each with the amount it would cost at the current rate. */
export async function currencyChoices(db: Executor, record: InvoiceRecord, pricing: Pricing) {
  const choices = [];
  for (const currency of CURRENCIES) {
    if (currency.kind !== "crypto" || !isOffered(currency.code)) continue;
    try {
      const price = await priceInvoice(db, {
        merchantId: record.merchantId,
        invoiceCurrency: record.currency,
        amount: record.amount,
        payCurrency: currency.code,
        pricing,
        field: "currency",
      });
      choices.push({
        currency: currency.code,
        name: currency.name,
        amount: formatAmount(price.senderAmount),
        is_available: true,
        reason: null,
      });
    } catch (error) {
      if (!(error instanceof KassaError)) throw error;
      choices.push({
        currency: currency.code,
        name: currency.name,
        amount: null,
        is_available: false,
        reason: Object.values(error.fields ?? {})[0] ?? error.message,
      });
    }
  }
  return choices;
}

export type CheckoutView = Awaited<ReturnType<typeof checkoutView>>;
