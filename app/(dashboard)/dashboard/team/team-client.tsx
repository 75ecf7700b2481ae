"use client";

import { secondaryButtonClass } from "@/components/forms/field";
import { errorMessage, FormError } from "@/components/forms/form-error";
import { useResendInvitation, useRevokeInvitation, useTeam } from "@/components/query/use-team";
import { formatDateTime } from "@/lib/format-date-time";
import type { Role } from "@/lib/team/permissions";
import { InviteForm } from "./invite-form";
import { MemberRow } from "./member-row";
import { mayManageRole } from "./role-options";

const listClass =
  "mt-2 divide-y divide-slate-200 border-y border-slate-200 dark:divide-slate-800 dark:border-slate-800";

/** The team: its members, the invitations still open, and (for owners and admins) the ways to change both. */
export function TeamClient({
  role,
  canManage,
  isMailInLog,
}: {
  role: Role;
  canManage: boolean;
  isMailInLog: boolean;
}) {
  const team = useTeam();
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const actionError = resend.error ?? revoke.error;
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Team</h1>
      <p className="mt-2 max-w-2xl text-slate-700 dark:text-slate-300">
        Everyone who signs in to this dashboard, and what their role lets them do. Changing a member&apos;s
        role or removing them ends their sessions at once. A team always keeps at least one owner.
      </p>
      {canManage && <InviteForm role={role} isMailInLog={isMailInLog} />}
      {team.isPending && (
        <p className="mt-4" aria-live="polite">
          Loading the team…
        </p>
      )}
      {team.error && (
        <p className="mt-4 text-red-700">The team could not be loaded. Reload the page to try again.</p>
      )}
      {team.data && (
        <>
          <h2 className="mt-8 text-xl font-semibold">Members</h2>
          <ul className={listClass}>
            {team.data.members.map((member) => (
              <MemberRow key={member.id} member={member} me={team.data.me} canManage={canManage} />
            ))}
          </ul>
          <h2 className="mt-8 text-xl font-semibold">Pending invitations</h2>
          {team.data.invitations.length === 0 && <p className="mt-2 text-sm">No invitation is waiting.</p>}
          {team.data.invitations.length > 0 && (
            <ul className={listClass}>
              {team.data.invitations.map((invitation) => (
                <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                  <div className="min-w-0">
                    <div className="break-all font-medium">{invitation.email}</div>
                    <div className="text-sm text-slate-600 dark:text-slate-400">
                      {invitation.role}
                      {invitation.invited_by && <> · invited by {invitation.invited_by}</>} · link works until{" "}
                      {formatDateTime(invitation.expires_at)}
                    </div>
                  </div>
                  {canManage && mayManageRole(role, invitation.role) && (
                    <div className="flex gap-2">
                      <button
                        type="button"
                        className={secondaryButtonClass}
                        disabled={resend.isPending}
                        onClick={() => resend.mutate(invitation.id)}
                      >
                        Resend<span className="sr-only"> the invitation to {invitation.email}</span>
                      </button>
                      <button
                        type="button"
                        className={secondaryButtonClass}
                        disabled={revoke.isPending}
                        onClick={() => {
                          if (
                            window.confirm(
                              `Revoke the invitation to ${invitation.email}? Its link stops working.`,
                            )
                          )
                            revoke.mutate(invitation.id);
                        }}
                      >
                        Revoke<span className="sr-only"> the invitation to {invitation.email}</span>
                      </button>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
          <p className="mt-2 text-sm font-medium" aria-live="polite">
            {resend.isSuccess && "Invitation sent again with a new link."}
            {revoke.isSuccess && "Invitation revoked."}
          </p>
          <FormError message={actionError ? errorMessage(actionError) : null} />
        </>
      )}
    </>
  );
}
