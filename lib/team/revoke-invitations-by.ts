import "server-only";

import { and, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { authTokens } from "@/lib/db/schema";

/**
 * Deletes the pending invitations `invitedBy` sent. An invitation carries its sender's authority
 * (it names the role the invitee gets), so it must not outlive that authority: it dies when the
 * sender is removed or loses team.manage.
 */
export async function revokeInvitationsBy(
  tx: Executor,
  input: { merchantId: number; invitedBy: number },
): Promise<void> {
  await tx
    .delete(authTokens)
    .where(
      and(
        eq(authTokens.purpose, "invitation"),
        eq(authTokens.merchantId, input.merchantId),
        eq(authTokens.invitedBy, input.invitedBy),
      ),
    );
}
