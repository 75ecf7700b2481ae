import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { mailLinkBase } from "@/lib/auth/mail-link-base";
import { getSecretBox } from "@/lib/runtime";
import { inviteMemberRequest } from "@/lib/schemas/team";
import { inviteMember } from "@/lib/team/invite-member";
import { teamActor } from "../team-actor";

/** Invites someone by e-mail with a role. Confirmed (a member is a way in). */
export const POST = withSession(
  { action: "team.invite", request: inviteMemberRequest, successStatus: 201 },
  async ({ db, session, body, request }) => {
    await inviteMember(db, {
      merchantId: session.merchantId,
      inviter: teamActor(session),
      email: body.email,
      role: body.role,
      baseUrl: mailLinkBase(request),
      box: getSecretBox(),
      audit: sessionSource(session, request),
    });
    return { invited: true, email: body.email.toLowerCase(), role: body.role };
  },
);
