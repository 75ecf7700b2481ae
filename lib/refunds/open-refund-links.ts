import "server-only";

import { and, desc, eq, gt } from "drizzle-orm";
import { type Clock, sqlNow } from "@/lib/clock";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Executor } from "@/lib/db/client";
import { refundClaims } from "@/lib/db/schema";
import { refundPath, refundToken } from "./refund-token";

/**
 * The links of an invoice's refunds still open (offered, not lapsed), newest first, re-derived
 * under the master key: for the invoice's checkout page and the merchant's invoice page.
 */
export async function openRefundLinks(
  db: Executor,
  input: { invoiceId: number; box: SecretBox; clock?: Clock },
): Promise<{ id: number; path: string }[]> {
  const rows = await db
    .select({ id: refundClaims.id, nonce: refundClaims.tokenNonce })
    .from(refundClaims)
    .where(
      and(
        eq(refundClaims.invoiceId, input.invoiceId),
        eq(refundClaims.status, "offered"),
        gt(refundClaims.expiresAt, sqlNow(input.clock)),
      ),
    )
    .orderBy(desc(refundClaims.id));
  return rows.map((row) => ({ id: row.id, path: refundPath(refundToken(input.box, row.nonce)) }));
}
