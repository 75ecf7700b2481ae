import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { changeRoleRequest } from "@/lib/schemas/team";
import { changeMemberRole } from "@/lib/team/change-member-role";

/** Gives a member another role (their sessions end). Confirmed first. */
export const PUT = withSession(
  { action: "team.role", request: changeRoleRequest },
  async ({ db, session, body, params, request }) => {
    const userId = pathId(params, "No such member of your team.");
    await changeMemberRole(db, {
      merchantId: session.merchantId,
      userId,
      role: body.role,
      actorId: session.userId,
      audit: sessionSource(session, request),
    });
    return { id: userId, role: body.role };
  },
);
