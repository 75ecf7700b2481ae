import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { removeMemberRequest } from "@/lib/schemas/team";
import { removeMember } from "@/lib/team/remove-member";

/** Removes a member from the team (their sessions end). Confirmed first. */
export const POST = withSession(
  { action: "team.remove", request: removeMemberRequest },
  async ({ db, session, params, request }) => {
    const userId = pathId(params, "No such member of your team.");
    await removeMember(db, {
      merchantId: session.merchantId,
      userId,
      actorId: session.userId,
      audit: sessionSource(session, request),
    });
    return { id: userId, removed: true };
  },
);
