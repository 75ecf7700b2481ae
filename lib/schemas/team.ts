import { z } from "zod";
import { ROLES } from "@/lib/team/permissions";
import { passwordResetConfirm } from "./auth";
import { secondFactorFields } from "./withdrawals";
import "./messages";

const role = z.enum(ROLES);

/** Dashboard: invite someone to the team by e-mail (asks for the second factor). */
export const inviteMemberRequest = z.object({
  email: z.email().max(254),
  role,
  ...secondFactorFields,
});

/** Dashboard: give a member another role (asks for the second factor). */
export const changeRoleRequest = z.object({ role, ...secondFactorFields });

/** Dashboard: remove a member (asks for the second factor). */
export const removeMemberRequest = z.object(secondFactorFields);

/** Public: accept an invitation from its link, choosing a password: what a reset link asks, too. */
export const acceptInvitationRequest = passwordResetConfirm;
