import { withSession } from "@/lib/api/with-session";
import { requestAddress } from "@/lib/auth/request-address";
import { acceptInvitationRequest } from "@/lib/schemas/team";
import { acceptInvitation } from "@/lib/team/accept-invitation";

/** Public: accepts an invitation from its link with a chosen password; the invitee then signs in. */
export const POST = withSession(
  { request: acceptInvitationRequest, isPublic: true },
  async ({ db, body, request }) => {
    const joined = await acceptInvitation(db, {
      token: body.token,
      password: body.password,
      address: requestAddress(request),
    });
    return { joined: true, email: joined.email };
  },
);
