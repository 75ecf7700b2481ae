"use client";

import { formSchema } from "@/components/forms/form-schema";
import { LinkPasswordForm } from "../link-password-form";

const schema = formSchema(() => import("@/lib/schemas/team").then((m) => m.acceptInvitationRequest));

/** Accepting an invitation: the invitee chooses a password, then signs in to the team's dashboard. */
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
    />
  );
}
