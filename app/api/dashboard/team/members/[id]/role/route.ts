import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { confirmUser } from "@/lib/auth/confirm-user";
import { getSecretBox } from "@/lib/runtime";
import { changeRoleRequest } from "@/lib/schemas/team";
import { changeMemberRole } from "@/lib/team/change-member-role";

/** Gives a member another role (their sessions end). Asks for the second factor first. */
export const PUT = withSession(
  { permission: "team.manage", request: changeRoleRequest },
  async ({ db, session, body, params, request }) => {
    const userId = pathId(params, "No such member of your team.");
    await confirmUser(db, { userId: session.userId, ask: "second_factor", box: getSecretBox(), ...body });
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
