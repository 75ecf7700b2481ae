import { z } from "zod";
import { ROLES } from "@/lib/team/permissions";
import { passwordResetConfirm } from "./auth";
import "./messages";

const role = z.enum(ROLES);

/** Dashboard: invite someone to the team by e-mail. */
export const inviteMemberRequest = z.object({ email: z.email().max(254), role });

/** Dashboard: give a member another role. */
export const changeRoleRequest = z.object({ role });

/** Dashboard: remove a member. */
export const removeMemberRequest = z.object({});

/** Public: accept an invitation from its link, choosing a password: what a reset link asks, too. */
export const acceptInvitationRequest = passwordResetConfirm;

/** Public: what an invitation link invites to, asked by the join page before a password is chosen. */
export const invitationDetailsRequest = z.object({ token: z.string().min(1).max(200) });
