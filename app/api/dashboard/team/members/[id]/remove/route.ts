import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { confirmUser } from "@/lib/auth/confirm-user";
import { getSecretBox } from "@/lib/runtime";
import { removeMemberRequest } from "@/lib/schemas/team";
import { removeMember } from "@/lib/team/remove-member";

/** Removes a member from the team (their sessions end). Asks for the second factor first. */
export const POST = withSession(
  { permission: "team.manage", request: removeMemberRequest },
  async ({ db, session, body, params, request }) => {
    const userId = pathId(params, "No such member of your team.");
    await confirmUser(db, { userId: session.userId, ask: "second_factor", box: getSecretBox(), ...body });
    await removeMember(db, {
      merchantId: session.merchantId,
      userId,
      actorId: session.userId,
      audit: sessionSource(session, request),
    });
    return { id: userId, removed: true };
  },
);
