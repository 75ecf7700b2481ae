import "server-only";

import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { authTokens } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import type { Role } from "./permissions";

/** A pending invitation of the merchant by its id (the stored token hash), locked, or a 404. */
export async function findInvitation(
  tx: Executor,
  input: { merchantId: number; id: string },
): Promise<{ id: string; email: string; role: Role }> {
  const [row] = await tx
    .select({ id: authTokens.tokenHash, email: authTokens.email, role: authTokens.role })
    .from(authTokens)
    .where(
      and(
        eq(authTokens.tokenHash, input.id),
        eq(authTokens.purpose, "invitation"),
        eq(authTokens.merchantId, input.merchantId),
        isNull(authTokens.usedAt),
      ),
    )
    .for("update");
  if (!row?.role)
    throw new KassaError("not_found", "No such invitation: it was accepted, revoked or replaced.");
  return { id: row.id, email: row.email, role: row.role };
}
