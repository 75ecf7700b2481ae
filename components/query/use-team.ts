"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { changeRoleRequest, inviteMemberRequest, removeMemberRequest } from "@/lib/schemas/team";
import type { Role } from "@/lib/team/permissions";
import { dashboardFetch } from "./dashboard-fetch";
import { queryKeys } from "./keys";

export type Team = {
  me: { id: number; role: Role };
  members: { id: number; email: string; role: Role; joined_at: string }[];
  invitations: { id: string; email: string; role: Role; invited_by: string | null; expires_at: string }[];
};

export function useTeam() {
  return useQuery({ queryKey: queryKeys.team, queryFn: () => dashboardFetch<Team>("/api/dashboard/team") });
}

/** A team change: the page's list is read again afterwards. */
function useTeamMutation<Input>(send: (input: Input) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.team }),
  });
}

export const useInviteMember = () =>
  useTeamMutation((body: z.input<typeof inviteMemberRequest>) =>
    dashboardFetch("/api/dashboard/team/invitations", { body }),
  );

export const useResendInvitation = () =>
  useTeamMutation((id: string) =>
    dashboardFetch(`/api/dashboard/team/invitations/${id}/resend`, { body: {} }),
  );

export const useRevokeInvitation = () =>
  useTeamMutation((id: string) =>
    dashboardFetch(`/api/dashboard/team/invitations/${id}/revoke`, { body: {} }),
  );

export const useChangeRole = () =>
  useTeamMutation((input: { id: number; body: z.input<typeof changeRoleRequest> }) =>
    dashboardFetch(`/api/dashboard/team/members/${input.id}/role`, { method: "PUT", body: input.body }),
  );

export const useRemoveMember = () =>
  useTeamMutation((input: { id: number; body: z.input<typeof removeMemberRequest> }) =>
    dashboardFetch(`/api/dashboard/team/members/${input.id}/remove`, { body: input.body }),
  );
