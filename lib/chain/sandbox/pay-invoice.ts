import "server-only";

import { amountsDue } from "@/lib/checkout/amounts-due";
import { getCurrency } from "@/lib/currencies/registry";
import type { Db } from "@/lib/db/client";
import { fieldError, notFound } from "@/lib/errors";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { divide, roundToPrecision } from "@/lib/money";
import { mineSandboxBlocks } from "./mine-blocks";
import { sendSandboxPayment } from "./send-payment";

const CHOOSE_FIRST = "The customer has not chosen a currency yet: choose one on the checkout page first.";

export type SandboxPayHow = "exact" | "under" | "over";

export type SandboxInvoicePayment = {
  txid: string;
  currency: string;
  amount: bigint;
  /** Blocks mined after it: the currency's confirmations, so the job that follows confirms it. */
  blocks: number;
};

/**
 * The sandbox panel's one-click payment of an invoice: what is still due (exact), half of it
 * (under), or a tenth more (over), sent to the invoice's address in its pay currency, then as many
 * blocks mined as the currency needs confirmations. Crediting and the invoice's outcome follow from
 * the chain-scan job, exactly as for a customer's payment.
 */
export async function paySandboxInvoice(
  db: Db,
  input: { merchantId: number; invoiceId: number; how: SandboxPayHow },
): Promise<SandboxInvoicePayment> {
  const record = await loadInvoiceById(db, input.invoiceId);
  if (!record || record.merchantId !== input.merchantId) throw notFound("No such invoice.");
  if (record.status !== "pending" && record.status !== "processing") {
    throw fieldError({
      invoice:
        record.status === "created"
          ? CHOOSE_FIRST
          : "This invoice is closed: it takes no more payments here.",
    });
  }
  // A timer invoice starts `pending` before its customer picks a coin: there is no address to pay yet.
  if (!record.invoice.senderCurrency || !record.address) throw fieldError({ invoice: CHOOSE_FIRST });
  const pay = getCurrency(record.invoice.senderCurrency);
  const due = await amountsDue(db, record);
  const remaining = due?.remaining ?? 0n;
  if (remaining <= 0n)
    throw fieldError({ invoice: "Nothing is left to pay: mine blocks to confirm what was sent." });
  const amount = {
    exact: remaining,
    under: roundToPrecision(divide(remaining, 2n, "down"), pay.precision, "down"),
    over: roundToPrecision(remaining + divide(remaining, 10n, "up"), pay.precision, "up"),
  }[input.how];
  if (amount <= 0n) throw fieldError({ invoice: "What is due is too small to pay less of." });
  const payment = await sendSandboxPayment(db, {
    currency: pay.code,
    address: record.address.address,
    tag: record.address.tag || undefined,
    amount,
  });
  const mined = await mineSandboxBlocks(db, { currency: pay.code, count: Math.max(1, pay.confirmations) });
  return { txid: payment.txid, currency: pay.code, amount, blocks: mined.blocks };
}
