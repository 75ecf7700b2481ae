"use client";

import { ROLE_SUMMARIES } from "@/app/(dashboard)/dashboard/team/role-options";
import { formSchema } from "@/components/forms/form-schema";
import { DashboardRequestError, dashboardFetch } from "@/components/query/dashboard-fetch";
import type { InvitationDetails } from "@/lib/team/describe-invitation";
import { type LinkCheck, LinkPasswordForm } from "../link-password-form";

const schema = formSchema(() => import("@/lib/schemas/team").then((m) => m.acceptInvitationRequest));

/** The team and role the link invites to, or the server's reason it no longer works. */
async function checkInvitation(token: string): Promise<LinkCheck> {
  try {
    const invitation = await dashboardFetch<InvitationDetails>("/api/dashboard/team/join/invitation", {
      body: { token },
    });
    return {
      isUsable: true,
      title: `Join ${invitation.team}`,
      intro: (
        <>
          You are invited to <strong>{invitation.team}</strong> on Kassa as <strong>{invitation.role}</strong>{" "}
          ({ROLE_SUMMARIES[invitation.role]}), with the address <strong>{invitation.email}</strong>. Choose a
          password for your Kassa account. The invitation works once.
        </>
      ),
    };
  } catch (error) {
    if (error instanceof DashboardRequestError && !error.isTransient)
      return { isUsable: false, reason: error.fields.token ?? error.message };
    // Kassa could not be reached: the form still works, and says why if joining fails.
    return { isUsable: true, title: "Join your team", intro: "Choose a password for your Kassa account." };
  }
}

/** Accepting an invitation: names the team and role, then the invitee chooses a password and signs in. */
export function JoinForm() {
  return (
    <LinkPasswordForm
      schema={schema}
      path="/api/dashboard/team/join"
      title="Join your team"
      intro="Choose a password for your Kassa account. The invitation works once."
      passwordLabel="Password"
      submitLabel="Join"
      busyLabel="Joining…"
      done={{
        title: "You joined the team",
        text: "Your account is ready. Sign in with your e-mail address and the new password.",
      }}
      incomplete="Open the link from the invitation e-mail as it is, or ask the team for a new one."
      check={checkInvitation}
    />
  );
}
