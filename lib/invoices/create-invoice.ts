import "server-only";

import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { type CallbackMode, checkCallbackUrl } from "@/lib/callbacks/url-policy";
import type { AccountKeys } from "@/lib/chain/account-keys";
import { allocateDepositAddress } from "@/lib/chain/allocate-deposit-address";
import { type Clock, systemClock } from "@/lib/clock";
import { assertFitsPrecision } from "@/lib/currencies/precision";
import { getCurrency } from "@/lib/currencies/registry";
import {
  type CustomerInput,
  customerIdentityError,
  customerIdentitySql,
} from "@/lib/customers/assert-customer-identity";
import { type Db, type Executor, queryRowsPrepared } from "@/lib/db/client";
import { amountSql, invoices, optionalAmountSql, optionalWholeSql } from "@/lib/db/schema";
import { inTransaction, retrySerializationFailures } from "@/lib/db/transaction";
import { fieldError } from "@/lib/errors";
import { formatAmountShort } from "@/lib/money";
import type { Pricing } from "@/lib/rates/pricing";
import type { DashboardInvoiceRequest } from "@/lib/schemas/invoices";
import { foreignIdTakenError } from "@/lib/transactions/foreign-id-taken";
import { changeSql } from "@/lib/transactions/record-change";
import { invoiceExpiryJob } from "./invoice-jobs";
import type { InvoiceRecord } from "./load-invoice";
import { priceInvoice } from "./price-invoice";

export type InvoiceSettings = {
  timerSeconds: number;
  pricing: Pricing;
  callbackMode: CallbackMode;
  /** Where "now" is read for timers and rate locks; the system clock unless given (tests). */
  clock?: Clock;
};

/**
 * What an invoice is created from: the API's request (spec 2.2), or the dashboard's, which may leave
 * the customer's details, the return addresses and the refund e-mail out (null in the database).
 */
export type InvoiceRequest = Omit<DashboardInvoiceRequest, "foreign_id" | "timer"> & {
  foreign_id: string;
  timer: boolean;
};

/**
 * Creates an invoice (spec 2.2; one statement: docs/decisions/one-statement-writes.md). A `sender_currency`
 * fixes its currency and rate now. Without a timer it starts `created` (the API's type 1), its address given
 * when the checkout opens; with one, `pending` (types 2, 3), its `timerSeconds` clock and expiry job started,
 * its address given now if `sender_currency` is (that needs `keys`), else the customer picks a coin in time.
 */
export async function createInvoice(
  db: Db,
  input: {
    merchantId: number;
    request: InvoiceRequest;
    settings: InvoiceSettings;
    keys?: AccountKeys;
    /** The API key whose request creates it (it signs the invoice's callbacks); absent: the dashboard. */
    apiKeyId?: number;
    /** The payment link a customer started it from (lib/payment-links/start-payment-link.ts). */
    paymentLinkId?: number;
  },
): Promise<InvoiceRecord> {
  const { merchantId, request, settings } = input;
  const currency = getCurrency(request.currency);
  assertFitsPrecision({ units: request.amount, currency: currency.code, field: "amount" });
  if (request.callback_url) checkCallbackUrl(request.callback_url, settings.callbackMode);
  if (request.amount < currency.minimumAmount) {
    throw fieldError({ amount: `The amount must be at least ${formatAmountShort(currency.minimumAmount)}.` });
  }

  // Spec 2.1's identity rule needs both a reference and the details; a dashboard invoice may have
  // neither yet (the customer's details are then checked when given on the checkout).
  const customer =
    request.end_user_reference && request.sender_type
      ? ({
          merchantId,
          endUserReference: request.end_user_reference ?? "",
          sender_type: request.sender_type,
          sender_data: request.sender_data,
        } as CustomerInput)
      : null;
  const customerCheck = customer ? customerIdentitySql(customer) : sql`true`;
  const price = request.sender_currency
    ? await priceInvoice(db, {
        merchantId,
        invoiceCurrency: currency.code,
        amount: request.amount,
        payCurrency: request.sender_currency,
        pricing: settings.pricing,
        field: "sender_currency",
      })
    : undefined;
  const now = (settings.clock ?? systemClock).now();
  const expiresAt = request.timer ? new Date(now.getTime() + settings.timerSeconds * 1000) : null;
  const status = request.timer ? "pending" : "created";
  const isAddressedNow = request.timer && price !== undefined;
  // Why it starts where it does, in its timeline (a `created` invoice needs no reason).
  const reason = request.timer ? (isAddressedNow ? "currency_fixed" : "timer_started") : null;
  if (isAddressedNow && !input.keys)
    throw new Error("createInvoice needs the account keys for a timer invoice with a sender_currency");
  const fields = {
    merchantId,
    token: randomBytes(18).toString("base64url"),
    title: request.title,
    description: request.description || null,
    type: request.type ?? "fill_or_kill",
    hasTimer: request.timer,
    urlSuccess: request.url_success ?? null,
    urlFailed: request.url_failed ?? null,
    emailUser: request.email_user ?? null,
    callbackUrl: request.callback_url || null,
    senderType: request.sender_type ?? null,
    senderData: request.sender_data ?? null,
    senderCurrency: request.sender_currency ?? null,
    senderAmount: price?.senderAmount ?? null,
    rateNumerator: price?.rate.numerator ?? null,
    rateDenominator: price?.rate.denominator ?? null,
    spreadPpm: price?.spreadPpm ?? null,
    depositAddressId: null,
    // With a timer, `fixed_at` is when its clock started (the public API fills it at creation).
    fixedAt: price || request.timer ? now : null,
    expiresAt,
    paidAmount: 0n,
    confirmedAmount: 0n,
    creditedAmount: 0n,
    statusReason: null,
    paymentLinkId: input.paymentLinkId ?? null,
  } satisfies Omit<typeof invoices.$inferSelect, "transactionId" | "createdAt">;

  // One statement: the customer check, the transaction, the invoice, its first event and its
  // expiry job commit together or not at all. The transaction is inserted from the check's row, so
  // the check has run (and refused, aborting the statement, when the customer differs) before it.
  const change = changeSql("created", {
    merchantId,
    from: null,
    to: status,
    reason,
    jobs: expiresAt ? [invoiceExpiryJob(expiresAt)] : [],
  });
  const write = async (executor: Executor) => {
    // Raw: the measured invoices/create write, one data-modifying WITH statement (docs/BENCHMARKS.md).
    const [row] = await queryRowsPrepared<{
      id: string | number;
      created_at: string | Date;
      merchant_name: string;
      tolerance_bp: number;
      support_email: string | null;
    }>(
      executor,
      sql`with customer as (select ${customerCheck} as is_checked),
          created as (
            insert into transactions (merchant_id, type, status, foreign_id, end_user_reference, currency, amount, api_key_id)
            select ${merchantId}, 'invoice', ${status}, ${request.foreign_id}, ${request.end_user_reference ?? null},
                   ${currency.code}, ${amountSql(request.amount)}, ${input.apiKeyId ?? null}::bigint
            from customer
            returning id, created_at),
          invoice as (
            insert into invoices (transaction_id, merchant_id, token, title, description, type, has_timer,
                                  url_success, url_failed, email_user, callback_url, sender_type, sender_data,
                                  sender_currency, sender_amount, rate_numerator, rate_denominator, spread_ppm, fixed_at, expires_at,
                                  payment_link_id, created_at)
            select id, ${merchantId}, ${fields.token}, ${fields.title}, ${fields.description}, ${fields.type},
                   ${fields.hasTimer}, ${fields.urlSuccess}, ${fields.urlFailed}, ${fields.emailUser},
                   ${fields.callbackUrl}, ${fields.senderType}, ${fields.senderData === null ? null : JSON.stringify(fields.senderData)}::jsonb,
                   ${fields.senderCurrency}, ${optionalAmountSql(fields.senderAmount)}, ${optionalWholeSql(fields.rateNumerator)}, ${optionalWholeSql(fields.rateDenominator)},
                   ${fields.spreadPpm}::integer, ${fields.fixedAt?.toISOString() ?? null}::timestamptz,
                   ${expiresAt?.toISOString() ?? null}::timestamptz, ${fields.paymentLinkId}::bigint, created_at
            from created),
          ${change.ctes}
          select c.id, c.created_at, m.name as merchant_name, m.underpayment_tolerance_bp as tolerance_bp,
                 m.support_email
          from created c, merchants m where m.id = ${merchantId}`,
    );
    return row!;
  };

  // A timer invoice with its currency gets its address in the same transaction as the invoice.
  const writeAddressed = () =>
    inTransaction(db, async (tx) => {
      const row = await write(tx);
      const address = await allocateDepositAddress(tx, input.keys!, {
        merchantId,
        currency: request.sender_currency!,
        kind: "invoice",
        invoiceId: Number(row.id),
      });
      await tx
        .update(invoices)
        .set({ depositAddressId: address.id })
        .where(eq(invoices.transactionId, Number(row.id)));
      return { ...row, address };
    });

  try {
    const row = isAddressedNow
      ? await writeAddressed()
      : { ...(await retrySerializationFailures(() => write(db))), address: null };
    const id = Number(row.id);
    const createdAt = new Date(row.created_at);
    return {
      id,
      merchantId,
      merchantName: row.merchant_name,
      underpaymentToleranceBp: Number(row.tolerance_bp),
      supportEmail: row.support_email,
      status,
      foreignId: request.foreign_id,
      endUserReference: request.end_user_reference ?? "",
      currency: currency.code,
      amount: request.amount,
      createdAt,
      invoice: { ...fields, depositAddressId: row.address?.id ?? null, transactionId: id, createdAt },
      address: row.address
        ? {
            id: row.address.id,
            address: row.address.address,
            tag: row.address.tag,
            currency: row.address.currency,
          }
        : null,
      // A new invoice's currency is the merchant's (`sender_currency`) or not chosen yet.
      isCurrencyChosenByCustomer: false,
    };
  } catch (error) {
    throw foreignIdTakenError(error) ?? customerIdentityError(error) ?? error;
  }
}
