import "server-only";

import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { assertFitsPrecision } from "@/lib/currencies/precision";
import { getCurrency } from "@/lib/currencies/registry";
import type { Db, Executor } from "@/lib/db/client";
import { invoices, merchants, paymentLinks, transactions } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError, KassaError, notFound } from "@/lib/errors";
import { createInvoice, type InvoiceSettings } from "@/lib/invoices/create-invoice";
import type { InvoiceRecord } from "@/lib/invoices/load-invoice";
import { formatAmountShort } from "@/lib/money";
import type { StartPaymentLinkRequest } from "@/lib/schemas/payment-links";
import { holdsUseSql, linkStatus, type PaymentLinkRow } from "./link-usage";
import { unavailableMessage } from "./unavailable-message";

/** How many of the link's invoices hold a use now, read under the link's row lock. */
async function countUses(
  tx: Executor,
  linkId: number,
  settings: InvoiceSettings,
): Promise<{ uses: number; open: number }> {
  const [row] = await tx
    .select({
      uses: sql<string>`count(*) filter (where ${holdsUseSql(settings.clock)})`,
      open: sql<string>`count(*) filter (where ${holdsUseSql(settings.clock)} and ${transactions.status} <> 'confirmed')`,
    })
    .from(invoices)
    .innerJoin(transactions, eq(transactions.id, invoices.transactionId))
    .where(eq(invoices.paymentLinkId, linkId));
  return { uses: Number(row?.uses ?? 0), open: Number(row?.open ?? 0) };
}

/** The amount this visit pays: the link's fixed one, or the customer's within the link's range. */
function amountOf(link: PaymentLinkRow, requested: bigint | undefined): bigint {
  if (link.amount !== null) {
    if (requested !== undefined && requested !== link.amount)
      throw fieldError({ amount: "The amount is fixed by this link and cannot be changed." });
    return link.amount;
  }
  if (requested === undefined) throw fieldError({ amount: "Enter the amount you want to pay." });
  const currency = getCurrency(link.currency);
  assertFitsPrecision({ units: requested, currency: currency.code, field: "amount" });
  const minimum = link.minAmount ?? currency.minimumAmount;
  if (requested < minimum)
    throw fieldError({
      amount: `The amount must be at least ${formatAmountShort(minimum)} ${currency.code}.`,
    });
  if (link.maxAmount !== null && requested > link.maxAmount)
    throw fieldError({
      amount: `The amount may not be greater than ${formatAmountShort(link.maxAmount)} ${currency.code}.`,
    });
  return requested;
}

/**
 * A customer starts paying a payment link (docs/decisions/payment-links.md): an invoice of their own with
 * a 15-minute timer, the link's title, description, currency, return addresses and id, the customer's
 * details and a made-up foreign_id, paid on /pay/<token>. The link's row lock makes racing visits for its
 * last use take turns (exactly one wins). An inactive, expired or used-up link is refused with 410 `gone`.
 */
export async function startPaymentLink(
  db: Db,
  input: { token: string; request: StartPaymentLinkRequest; settings: InvoiceSettings },
): Promise<InvoiceRecord> {
  const { request, settings } = input;
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .select({ link: paymentLinks, merchantName: merchants.name })
      .from(paymentLinks)
      .innerJoin(merchants, eq(merchants.id, paymentLinks.merchantId))
      .where(eq(paymentLinks.token, input.token))
      .for("update", { of: paymentLinks });
    if (!row) throw notFound("No such payment link.");
    const { link } = row;
    const { uses, open } = await countUses(tx, link.id, settings);
    const status = linkStatus(link, uses, (settings.clock ?? { now: () => new Date() }).now());
    if (status !== "active")
      throw new KassaError(
        "gone",
        unavailableMessage({ status, merchantName: row.merchantName, openInvoices: open }),
      );
    const isAllowed = request.sender_type === "natural" ? link.allowsNatural : link.allowsLegal;
    if (!isAllowed)
      throw fieldError({
        sender_type: link.allowsNatural
          ? "This link takes payments from people only, not companies."
          : "This link takes payments from companies only.",
      });
    const amount = amountOf(link, request.amount);

    const [counted] = await tx
      .update(paymentLinks)
      .set({ visits: sql`${paymentLinks.visits} + 1` })
      .where(eq(paymentLinks.id, link.id))
      .returning({ visits: paymentLinks.visits });
    // Numbered per link, for a merchant reading an export; the random tail keeps it from ever
    // meeting an id the merchant chose themselves (foreign_id is unique per merchant).
    const foreignId = `link-${link.id}-${counted!.visits}-${randomBytes(3).toString("hex")}`;
    const email = request.sender_data.email;
    return createInvoice(tx, {
      merchantId: link.merchantId,
      apiKeyId: link.apiKeyId ?? undefined,
      paymentLinkId: link.id,
      settings,
      request: {
        title: link.title,
        description: link.description ?? undefined,
        currency: link.currency,
        amount,
        timer: true,
        foreign_id: foreignId,
        type: "fill_or_kill",
        url_success: link.urlSuccess ?? undefined,
        url_failed: link.urlFailed ?? undefined,
        email_user: email,
        sender_type: request.sender_type,
        sender_data: request.sender_data,
      },
    });
  });
}
