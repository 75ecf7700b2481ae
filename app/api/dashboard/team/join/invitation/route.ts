import { withSession } from "@/lib/api/with-session";
import { invitationDetailsRequest } from "@/lib/schemas/team";
import { describeInvitation } from "@/lib/team/describe-invitation";

/**
 * Public: the team, role and address an invitation link invites to, or why the link no longer works.
 * POST, because the token travels in the body (never in a URL a log could keep).
 */
export const POST = withSession({ request: invitationDetailsRequest, isPublic: true }, async ({ db, body }) =>
  describeInvitation(db, { token: body.token }),
);
