import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { mailLinkBase } from "@/lib/auth/mail-link-base";
import { getSecretBox } from "@/lib/runtime";
import { resendInvitation } from "@/lib/team/resend-invitation";
import { teamActor } from "../../../team-actor";

/** Sends a pending invitation again with a new link; the old link stops working. */
export const POST = withSession(
  { action: "team.invitation_resend" },
  async ({ db, session, params, request }) => {
    await resendInvitation(db, {
      merchantId: session.merchantId,
      id: params.id ?? "",
      inviter: teamActor(session),
      baseUrl: mailLinkBase(request),
      box: getSecretBox(),
      audit: sessionSource(session, request),
    });
    return { resent: true };
  },
);
