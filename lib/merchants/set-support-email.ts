import "server-only";

import type { AuditSource } from "@/lib/audit/record-audit-entry";
import type { Db } from "@/lib/db/client";
import { fieldError } from "@/lib/errors";
import { supportEmailRequest } from "@/lib/schemas/merchant-settings";
import { updateMerchantSetting } from "./update-merchant-setting";

/**
 * Sets (or, with "", removes) the address customers' replies go to: the Reply-To of every e-mail to
 * a customer (lib/mail/queue-email.ts) and the contact the checkout shows. Audited in the same
 * transaction. Returns it as stored, null when removed.
 */
export async function setSupportEmail(
  db: Db,
  input: { merchantId: number; email: string; audit: AuditSource },
): Promise<string | null> {
  const parsed = supportEmailRequest.safeParse({ support_email: input.email });
  if (!parsed.success)
    throw fieldError({ support_email: "Type an e-mail address like support@example.com." });
  const email = parsed.data.support_email || null;
  await updateMerchantSetting(db, {
    merchantId: input.merchantId,
    set: { supportEmail: email },
    audit: input.audit,
    action: "support_email_changed",
    detail: email ? `support e-mail ${email}` : "support e-mail removed",
  });
  return email;
}
