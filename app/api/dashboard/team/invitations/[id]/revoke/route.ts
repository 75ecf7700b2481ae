import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { revokeInvitation } from "@/lib/team/revoke-invitation";

/** Takes a pending invitation back. */
export const POST = withSession(
  { action: "team.invitation_revoke" },
  async ({ db, session, params, request }) => {
    await revokeInvitation(db, {
      merchantId: session.merchantId,
      id: params.id ?? "",
      actorId: session.userId,
      audit: sessionSource(session, request),
    });
    return { revoked: true };
  },
);
