import "server-only";

import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";
import { formatTolerancePercent } from "./tolerance-percent";

/** The Settings page's figures: the support address ("" when none) and the tolerance as a percentage. */
export async function readCustomerSettings(db: Executor, merchantId: number) {
  const [row] = await db
    .select({ email: merchants.supportEmail, toleranceBp: merchants.underpaymentToleranceBp })
    .from(merchants)
    .where(eq(merchants.id, merchantId));
  return {
    supportEmail: row?.email ?? "",
    tolerancePercent: formatTolerancePercent(row?.toleranceBp ?? 0),
  };
}
