import "server-only";

import { and, eq, lt, type SQL } from "drizzle-orm";
import type { Clock } from "@/lib/clock";
import type { Executor } from "@/lib/db/client";
import { paymentLinks } from "@/lib/db/schema";
import { PAYMENT_LINKS_PAGE_DEFAULT } from "@/lib/schemas/payment-links";
import { type PaymentLinkRecord, selectLinksWithUsage } from "./link-usage";

/**
 * One merchant's links, newest first, with their usage. Keyset pagination: the cursor is the last id
 * of the previous page, so pages stay stable while new links are created.
 */
export async function listPaymentLinks(
  db: Executor,
  input: { merchantId: number; limit?: number; cursor?: string; clock?: Clock },
): Promise<{ links: PaymentLinkRecord[]; nextCursor: string | null }> {
  const limit = input.limit ?? PAYMENT_LINKS_PAGE_DEFAULT;
  const conditions: SQL[] = [eq(paymentLinks.merchantId, input.merchantId)];
  if (input.cursor) conditions.push(lt(paymentLinks.id, Number(input.cursor)));
  const rows = await selectLinksWithUsage(db, {
    where: and(...conditions),
    limit: limit + 1,
    clock: input.clock,
  });
  const links = rows.slice(0, limit);
  return { links, nextCursor: rows.length > limit ? String(links.at(-1)!.link.id) : null };
}
