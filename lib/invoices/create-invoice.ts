import { randomBytes } from "node:crypto";
import { type CallbackMode, checkCallbackUrl } from "@/lib/callbacks/url-policy";
import { getCurrency } from "@/lib/currencies/registry";
import { assertCustomerIdentity } from "@/lib/customers/assert-customer-identity";
import type { Db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { invoices, transactions } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError } from "@/lib/errors";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { formatAmountShort, roundToPrecision } from "@/lib/money";
import type { CreateInvoiceRequest } from "@/lib/schemas/invoices";
import { recordCreated } from "@/lib/transactions/transition-status";
import { type InvoiceRecord, loadInvoiceById } from "./load-invoice";
import { priceInvoice } from "./price-invoice";

export const INVOICE_EXPIRY_QUEUE = "invoice.expire";

export type InvoiceSettings = { timerSeconds: number; spreadPpm: number; callbackMode: CallbackMode };

export const FOREIGN_ID_TAKEN = { foreign_id: "The foreign id has already been taken." };

/**
 * Creates an invoice (spec 2.2). With `sender_currency`, the payment currency and its rate are fixed
 * now; the deposit address is still handed out when the customer opens the checkout, so the
 * response keeps `address: null` and `status: created` as the public API does. With `timer`, an
 * expiry job is queued in the same transaction.
 */
export async function createInvoice(
  db: Db,
  input: { merchantId: number; request: CreateInvoiceRequest; settings: InvoiceSettings },
): Promise<InvoiceRecord> {
  const { merchantId, request, settings } = input;
  const currency = getCurrency(request.currency);
  if (roundToPrecision(request.amount, currency.precision, "down") !== request.amount) {
    throw fieldError({
      amount: `The amount has more decimal places than ${currency.code} allows (${currency.precision}).`,
    });
  }
  if (request.callback_url) checkCallbackUrl(request.callback_url, settings.callbackMode);
  if (request.amount < currency.minimumAmount) {
    throw fieldError({ amount: `The amount must be at least ${formatAmountShort(currency.minimumAmount)}.` });
  }

  try {
    return await inTransaction(db, async (tx) => {
      await assertCustomerIdentity(tx, {
        merchantId,
        endUserReference: request.end_user_reference,
        sender_type: request.sender_type,
        sender_data: request.sender_data,
      } as Parameters<typeof assertCustomerIdentity>[1]);

      const price = request.sender_currency
        ? await priceInvoice(tx, {
            invoiceCurrency: currency.code,
            amount: request.amount,
            payCurrency: request.sender_currency,
            spreadPpm: settings.spreadPpm,
            field: "sender_currency",
          })
        : undefined;
      const now = new Date();
      const expiresAt = request.timer ? new Date(now.getTime() + settings.timerSeconds * 1000) : null;

      const [transaction] = await tx
        .insert(transactions)
        .values({
          merchantId,
          type: "invoice",
          status: "created",
          foreignId: request.foreign_id,
          endUserReference: request.end_user_reference,
          currency: currency.code,
          amount: request.amount,
        })
        .returning({ id: transactions.id });
      const id = transaction!.id;
      await tx.insert(invoices).values({
        transactionId: id,
        merchantId,
        token: randomBytes(18).toString("base64url"),
        title: request.title,
        description: request.description || null,
        type: request.type ?? "fill_or_kill",
        hasTimer: request.timer,
        urlSuccess: request.url_success,
        urlFailed: request.url_failed,
        emailUser: request.email_user,
        callbackUrl: request.callback_url || null,
        senderType: request.sender_type,
        senderData: request.sender_data,
        senderCurrency: request.sender_currency ?? null,
        senderAmount: price?.senderAmount ?? null,
        rate: price?.rate ?? null,
        spreadPpm: price?.spreadPpm ?? null,
        fixedAt: price ? now : null,
        expiresAt,
      });
      await recordCreated(tx, { transactionId: id, merchantId, status: "created" });
      if (expiresAt) {
        await enqueueJob(tx, {
          queue: INVOICE_EXPIRY_QUEUE,
          payload: { invoiceId: id },
          runAt: expiresAt,
          dedupeKey: `invoice-expiry:${id}:${expiresAt.getTime()}`,
        });
      }
      return (await loadInvoiceById(tx, id))!;
    });
  } catch (error) {
    if (isUniqueViolation(error, "transactions_merchant_foreign_id_key")) throw fieldError(FOREIGN_ID_TAKEN);
    throw error;
  }
}
