import { withSession } from "@/lib/api/with-session";
import { listTeam } from "@/lib/team/list-team";

/** The team page's data: the members, the pending invitations, and who is asking. */
export const GET = withSession({ permission: "team.view" }, async ({ db, session }) => {
  const team = await listTeam(db, { merchantId: session.merchantId });
  return {
    me: { id: session.userId, role: session.role },
    members: team.members.map((m) => ({
      id: m.id,
      email: m.email,
      role: m.role,
      joined_at: m.joinedAt.toISOString(),
    })),
    invitations: team.invitations.map((i) => ({
      id: i.id,
      email: i.email,
      role: i.role,
      invited_by: i.invitedBy,
      expires_at: i.expiresAt.toISOString(),
    })),
  };
});
