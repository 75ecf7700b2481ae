import "server-only";

import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { recordAuditEntry } from "./record-audit-entry";

/**
 * Records a sign-in or a failed one in the trail of the merchant whose user the e-mail names. An
 * e-mail no user has belongs to no merchant, so its failures are in no trail (the per-address
 * limits still count them). `reason` is the failure's kind (wrong password, second factor, locked).
 */
export async function recordSignIn(
  db: Db,
  input: { email: string; address: string; isSuccess: boolean; reason?: string },
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const [user] = await db
    .select({ id: users.id, merchantId: users.merchantId, email: users.email })
    .from(users)
    .where(sql`lower(${users.email}) = ${email} and ${users.removedAt} is null`);
  if (!user) return;
  await recordAuditEntry(db, {
    merchantId: user.merchantId,
    actor: { kind: "user", userId: user.id, email: user.email },
    address: input.address,
    action: input.isSuccess ? "sign_in" : "sign_in_failed",
    detail: input.reason ?? "",
  });
}
