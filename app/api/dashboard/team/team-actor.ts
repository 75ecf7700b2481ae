import type { MerchantSession } from "@/lib/auth/merchant-session";
import type { Inviter } from "@/lib/team/invite-member";

/** The signed-in member as the team engine names who sends an invitation. */
export const teamActor = (session: MerchantSession): Inviter => ({
  userId: session.userId,
  email: session.email,
  role: session.role,
});
