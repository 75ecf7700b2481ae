import "server-only";

import { and, eq, isNull } from "drizzle-orm";
import { type AuditActor, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Db } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { parseAllowlist } from "./parse-allowlist";

/**
 * Sets (or, with an empty list, removes) the IP allowlist of one of the merchant's active keys.
 * Applies to the very next request: keys are read on every request.
 */
export async function setKeyAllowlist(
  db: Db,
  input: { merchantId: number; keyId: number; entries: string[]; actor: AuditActor; address: string },
): Promise<string[] | null> {
  const allowedIps = parseAllowlist(input.entries);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ allowedIps })
      .where(
        and(eq(apiKeys.id, input.keyId), eq(apiKeys.merchantId, input.merchantId), isNull(apiKeys.revokedAt)),
      )
      .returning({ key: apiKeys.key });
    if (!row) throw notFound("No active API key with that id for this merchant.");
    await recordAuditEntry(tx, {
      merchantId: input.merchantId,
      actor: input.actor,
      address: input.address,
      action: "api_key_allowlist_changed",
      detail: `${row.key}: ${allowedIps ? allowedIps.join(" ") : "any address"}`,
    });
    return allowedIps;
  });
}
