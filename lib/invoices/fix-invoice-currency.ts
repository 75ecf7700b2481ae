import "server-only";

import { eq } from "drizzle-orm";
import { queueCallback } from "@/lib/callbacks/queue-callback";
import type { AccountKeys } from "@/lib/chain/account-keys";
import { allocateDepositAddress } from "@/lib/chain/allocate-deposit-address";
import { systemClock } from "@/lib/clock";
import type { Db, Tx } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError, notFound } from "@/lib/errors";
import { storedRate } from "@/lib/rates/rate";
import { enqueueChangeJob, recordChange } from "@/lib/transactions/record-change";
import type { InvoiceSettings } from "./create-invoice";
import { markChosenByCustomer } from "./currency-choice";
import { invoiceExpiryJob } from "./invoice-jobs";
import { type InvoiceRecord, loadInvoiceById, loadInvoiceByToken } from "./load-invoice";
import { invoiceSpreadPpm, priceInvoice } from "./price-invoice";
import { isLockLive } from "./rate-lock";
import { repriceInvoiceIn, scheduleRepricing } from "./reprice-invoice";
import { setInvoiceStatus } from "./set-invoice-status";
import { switchInvoiceCurrencyIn } from "./switch-invoice-currency";

/**
 * A timer invoice is `pending` from creation, so choosing its currency changes no status; the
 * merchant still hears of it as of any invoice becoming payable (an `invoice.pending` callback, now
 * with its address), and the timeline says when it happened.
 */
async function announceCurrencyFixed(tx: Tx, record: InvoiceRecord): Promise<void> {
  await tx
    .update(invoices)
    .set({ statusReason: "currency_fixed" })
    .where(eq(invoices.transactionId, record.id));
  await recordChange(tx, record.id, {
    merchantId: record.merchantId,
    from: "pending",
    to: "pending",
    reason: "currency_fixed",
  });
  await queueCallback(tx, { transactionId: record.id, status: "pending" });
}

/**
 * The customer chooses how to pay (DESIGN.md section 8): the rate is locked (a merchant-fixed currency
 * keeps its creation rate only while that lock holds), a never-used address is assigned, the invoice is
 * `pending`. The same currency again answers the same invoice; another switches coins if the customer
 * chose the first and nothing was paid (switch-invoice-currency.ts), and is refused otherwise.
 */
export async function fixInvoiceCurrency(
  db: Db,
  input: { token: string; currency: string; settings: InvoiceSettings; keys: AccountKeys },
): Promise<InvoiceRecord> {
  return inTransaction(db, async (tx) => {
    const locked = await loadInvoiceByToken(tx, input.token, true);
    if (!locked) throw notFound("No such invoice.");
    // Read again once the lock is ours: a row lock that had to wait (another tab switching coins)
    // returns the invoice's new row but the joined address as the statement first saw it (none).
    const record = (await loadInvoiceById(tx, locked.id))!;
    const { invoice } = record;
    // The customer's details come before any address (lib/invoices/give-customer-details.ts).
    if (invoice.senderType === null)
      throw fieldError({ currency: "Please give your details first; the address is shown after them." });
    if (record.address) {
      // Already fixed with this currency (a second tab, a reload): answered as it is, re-priced if
      // its lock expired unpaid. Another one: the customer switches coins, while that is allowed.
      if (invoice.senderCurrency === input.currency) return repriceInvoiceIn(tx, record, input.settings);
      return switchInvoiceCurrencyIn(tx, record, input);
    }
    const isFixed = invoice.senderCurrency !== null;
    if (isFixed && invoice.senderCurrency !== input.currency) {
      throw fieldError({
        currency: `This invoice is paid in ${invoice.senderCurrency}; the currency cannot be changed.`,
      });
    }
    // Waiting for a currency: `created`, or a timer invoice `pending` since creation with its clock running.
    if (record.status !== "created" && record.status !== "pending")
      throw fieldError({ currency: "This invoice can no longer be paid." });
    const isClockRunning = record.status === "pending";
    const now = (input.settings.clock ?? systemClock).now();
    if (invoice.expiresAt && invoice.expiresAt <= now)
      throw fieldError({ currency: "This invoice has expired." });

    // A merchant-fixed currency keeps the price of creation while its lock holds; opened later (or
    // migrated without a usable rate) it is priced afresh, with a new lock from now.
    const storedPrice = isFixed ? storedRate(invoice.rateNumerator, invoice.rateDenominator) : null;
    const isStoredLive =
      storedPrice !== null && isLockLive(record, input.settings.pricing.rateLockSeconds, now);
    const price =
      storedPrice && isStoredLive
        ? { rate: storedPrice, spreadPpm: invoiceSpreadPpm(invoice), senderAmount: invoice.senderAmount! }
        : await priceInvoice(tx, {
            merchantId: record.merchantId,
            invoiceCurrency: record.currency,
            amount: record.amount,
            payCurrency: input.currency,
            pricing: input.settings.pricing,
            field: "currency",
          });
    const address = await allocateDepositAddress(tx, input.keys, {
      merchantId: record.merchantId,
      currency: input.currency,
      kind: "invoice",
      invoiceId: record.id,
    });
    // A timer invoice's clock runs from creation (DESIGN.md section 6). Only an invoice created
    // `created` with a timer before that rule (its deadline was to choose a currency) starts it now.
    const expiresAt =
      invoice.hasTimer && !isFixed && !isClockRunning
        ? new Date(now.getTime() + input.settings.timerSeconds * 1000)
        : invoice.expiresAt;
    await tx
      .update(invoices)
      .set({
        senderCurrency: input.currency,
        senderAmount: price.senderAmount,
        rateNumerator: price.rate.numerator,
        rateDenominator: price.rate.denominator,
        spreadPpm: price.spreadPpm,
        // A running clock keeps the `fixed_at` it started at (`release_at` stays 15 minutes after it).
        fixedAt: isStoredLive || isClockRunning ? invoice.fixedAt : now,
        depositAddressId: address.id,
        expiresAt,
      })
      .where(eq(invoices.transactionId, record.id));
    // Only a customer's own choice may be switched later (lib/invoices/switch-invoice-currency.ts).
    if (!isFixed) await markChosenByCustomer(tx, record.id);
    if (isClockRunning) await announceCurrencyFixed(tx, record);
    else await setInvoiceStatus(tx, record.id, "pending", "currency_fixed");
    if (expiresAt && expiresAt.getTime() !== invoice.expiresAt?.getTime()) {
      await enqueueChangeJob(tx, record.id, invoiceExpiryJob(expiresAt));
    }
    const fixed = (await loadInvoiceById(tx, record.id))!;
    await scheduleRepricing(tx, fixed, input.settings);
    return fixed;
  });
}
