import "server-only";

import { eq, sql } from "drizzle-orm";
import { type Clock, systemClock } from "@/lib/clock";
import type { Db, Tx } from "@/lib/db/client";
import { refundClaims, withdrawals } from "@/lib/db/schema";
import { fieldError, KassaError, notFound } from "@/lib/errors";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { formatAmountShort } from "@/lib/money";
import type { Pricing } from "@/lib/rates/pricing";
import type { Sender } from "@/lib/schemas/common";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { expireRefund } from "./expire-refund";
import { priceIssuedRefund } from "./price-issued-refund";
import { type RefundView, readRefund } from "./read-refund";
import { recordRefundEvent } from "./record-refund-event";
import { refundClosed } from "./refund-closed";

/** Fields of the customer's claim; any other field's refusal is the merchant's side, told in general words. */
const CUSTOMER_FIELDS = new Set(["address", "tag", "currency"]);

/**
 * The customer claims a refund: a coin the refund allows, and the address (and tag). The payout is an
 * ordinary withdrawal from the merchant's balance (createWithdrawal), recorded against the invoice. The
 * refund's row lock makes it happen once: of two claims one is refused; a racing cancel lands first or is
 * refused. A lapsed link is marked expired and refused.
 */
export async function claimRefund(
  db: Db,
  input: {
    token: string;
    currency: string;
    address: string;
    tag?: string;
    pricing: Pricing;
    approvalSeconds?: number;
    clock?: Clock;
  },
): Promise<RefundView> {
  const clock = input.clock ?? systemClock;
  const refund = await readRefund(db, { token: input.token }, clock);
  if (!refund) throw notFound("This refund link is not valid. Check that it was copied whole.");
  if (refund.status === "expired") await expireRefund(db, { refundId: refund.id, clock });
  if (refund.status !== "offered") throw refundClosed(refund);
  const currency = input.currency.trim().toUpperCase();
  if (!refund.currencies.includes(currency))
    throw fieldError({ currency: `Choose one of ${refund.currencies.join(", ")}.` });
  const address = input.address.trim();
  if (!address) throw fieldError({ address: `Enter the ${currency} address to receive the refund.` });
  const tag = input.tag?.trim() || undefined;

  const record = (await loadInvoiceById(db, refund.invoiceId))!;
  const price = await priceIssuedRefund(db, refund, currency);
  if (price.isUnderMinimum)
    throw fieldError({
      currency: `In ${currency} this refund would be under the network's minimum of ${formatAmountShort(price.minimum)} ${currency}; choose another coin.`,
    });

  const lockOpen = async (tx: Tx) => {
    const [claim] = await tx.select().from(refundClaims).where(eq(refundClaims.id, refund.id)).for("update");
    const isLapsed = claim!.status === "offered" && claim!.expiresAt.getTime() <= clock.now().getTime();
    if (claim!.status !== "offered" || isLapsed)
      throw refundClosed({
        status: isLapsed ? "expired" : claim!.status,
        merchantName: refund.merchantName,
        expiresAt: claim!.expiresAt,
      });
  };
  const link = async (tx: Tx, withdrawalId: number) => {
    await tx
      .update(refundClaims)
      .set({
        status: "claimed",
        claimedCurrency: currency,
        address,
        // As the payout stored it (checkTag normalises it).
        tag: sql`(select ${withdrawals.tag} from ${withdrawals} where ${withdrawals.transactionId} = ${withdrawalId})`,
        withdrawalId,
        claimedAt: clock.now(),
      })
      .where(eq(refundClaims.id, refund.id));
    await recordRefundEvent(tx, {
      refundId: refund.id,
      invoiceId: refund.invoiceId,
      merchantId: refund.merchantId,
      event: "refund_claimed",
    });
  };
  try {
    await createWithdrawal(db, {
      merchantId: refund.merchantId,
      kind: price.withdrawal.kind,
      source: price.withdrawal.source,
      target: price.withdrawal.target,
      amountTo: price.withdrawal.amountTo,
      address,
      tag,
      foreignId: `kassa-refund-${refund.id}`,
      // One reference per refunded invoice: its customer is the payout's sender, and gets it back.
      endUserReference: `refund-${refund.invoiceId}`,
      sender: { sender_type: record.invoice.senderType, sender_data: record.invoice.senderData } as Sender,
      receiver: { receiver_type: "self" },
      pricing: input.pricing,
      approvalSeconds: input.approvalSeconds,
      refundOf: refund.invoiceId,
      claim: { before: lockOpen, after: link },
      clock,
    });
  } catch (error) {
    throw customerError(error, refund.merchantName);
  }
  return (await readRefund(db, { token: input.token }, clock))!;
}

/**
 * What the customer is told when the payout is refused: their own field's message as it is, the
 * merchant's side (balance, limits, a conversion unavailable) without its figures.
 */
function customerError(error: unknown, merchantName: string): unknown {
  if (!(error instanceof KassaError) || error.code !== "validation_failed" || !error.fields) return error;
  const fields = Object.keys(error.fields);
  if (fields.every((field) => CUSTOMER_FIELDS.has(field))) return error;
  return new KassaError(
    "conflict",
    `${merchantName} cannot send this refund right now. Nothing was sent; try again later or contact them.`,
  );
}
