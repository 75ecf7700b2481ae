import "server-only";

import { randomBytes } from "node:crypto";
import { type AuditSource, actorText, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { type Clock, systemClock } from "@/lib/clock";
import { assertFitsPrecision } from "@/lib/currencies/precision";
import { getCurrency } from "@/lib/currencies/registry";
import type { Db } from "@/lib/db/client";
import { paymentLinks } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError } from "@/lib/errors";
import { formatAmountShort } from "@/lib/money";
import type { CreatePaymentLinkRequest } from "@/lib/schemas/payment-links";
import type { PaymentLinkRecord } from "./link-usage";
import { loadPaymentLink } from "./load-payment-link";

/**
 * Creates a payment link (docs/decisions/payment-links.md) for the API or the dashboard, audited in
 * the same transaction. The request schema already checked the fields; the amounts are checked again
 * against the currency here (as createInvoice does, for callers that come through no schema), and the
 * expiry against the clock, which only the engine knows.
 */
export async function createPaymentLink(
  db: Db,
  input: {
    merchantId: number;
    request: CreatePaymentLinkRequest;
    audit: AuditSource;
    /** The API key whose request creates it: it then signs the callbacks of the link's invoices. */
    apiKeyId?: number;
    clock?: Clock;
  },
): Promise<PaymentLinkRecord> {
  const { request } = input;
  const clock = input.clock ?? systemClock;
  const currency = getCurrency(request.currency);
  for (const field of ["amount", "min_amount", "max_amount"] as const) {
    const units = request[field];
    if (units === undefined) continue;
    assertFitsPrecision({ units, currency: currency.code, field });
    if (units < currency.minimumAmount)
      throw fieldError({
        [field]: `The ${field.replace(/_/g, " ")} must be at least ${formatAmountShort(currency.minimumAmount)}.`,
      });
  }
  if (request.amount !== undefined && (request.min_amount !== undefined || request.max_amount !== undefined))
    throw fieldError({ min_amount: "The min amount field is prohibited when amount is present." });
  const expiresAt = request.expires_at === undefined ? null : new Date(request.expires_at);
  if (expiresAt && expiresAt <= clock.now())
    throw fieldError({ expires_at: "The expires at must be a time in the future." });
  const types = request.sender_types ?? ["natural", "legal"];

  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .insert(paymentLinks)
      .values({
        merchantId: input.merchantId,
        token: randomBytes(18).toString("base64url"),
        title: request.title,
        description: request.description || null,
        currency: currency.code,
        amount: request.amount ?? null,
        minAmount: request.min_amount ?? null,
        maxAmount: request.max_amount ?? null,
        allowsNatural: types.includes("natural"),
        allowsLegal: types.includes("legal"),
        urlSuccess: request.url_success ?? null,
        urlFailed: request.url_failed ?? null,
        expiresAt,
        maxUses: request.max_uses ?? null,
        apiKeyId: input.apiKeyId ?? null,
        createdBy: actorText(input.audit.actor),
      })
      .returning({ id: paymentLinks.id });
    const id = row!.id;
    await recordAuditEntry(tx, {
      merchantId: input.merchantId,
      ...input.audit,
      action: "payment_link_created",
      detail: `Payment link ${id} "${request.title}"`,
    });
    return (await loadPaymentLink(tx, { merchantId: input.merchantId, id, clock }))!;
  });
}
