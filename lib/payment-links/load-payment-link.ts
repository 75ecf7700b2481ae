import "server-only";

import { and, eq } from "drizzle-orm";
import type { Clock } from "@/lib/clock";
import type { Executor } from "@/lib/db/client";
import { paymentLinks } from "@/lib/db/schema";
import { type PaymentLinkRecord, selectLinksWithUsage } from "./link-usage";

/** One of the merchant's links with its usage; another merchant's link is simply not found. */
export async function loadPaymentLink(
  db: Executor,
  input: { merchantId: number; id: number; clock?: Clock },
): Promise<PaymentLinkRecord | undefined> {
  const [record] = await selectLinksWithUsage(db, {
    where: and(eq(paymentLinks.merchantId, input.merchantId), eq(paymentLinks.id, input.id)),
    clock: input.clock,
  });
  return record;
}

/** The public page's lookup: by the unguessable token only. */
export async function loadPaymentLinkByToken(
  db: Executor,
  input: { token: string; clock?: Clock },
): Promise<PaymentLinkRecord | undefined> {
  const [record] = await selectLinksWithUsage(db, {
    where: eq(paymentLinks.token, input.token),
    clock: input.clock,
  });
  return record;
}
