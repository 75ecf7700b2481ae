"use client";

import { useState } from "react";
import type { z } from "zod";
import { buttonClass, Field, selectClass } from "@/components/forms/field";
import { selectDefault } from "@/components/forms/field-defaults";
import { FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { MailInLogNote } from "@/components/mail-in-log-note";
import { useInviteMember } from "@/components/query/use-team";
import type { inviteMemberRequest } from "@/lib/schemas/team";
import type { Role } from "@/lib/team/permissions";
import { assignableRoles, rolesHint } from "./role-options";

const schema = formSchema(() => import("@/lib/schemas/team").then((m) => m.inviteMemberRequest));

/** Invites someone by e-mail; confirmed in the dashboard's one dialog, like every change that lets someone in. */
export function InviteForm({ role, isMailInLog }: { role: Role; isMailInLog: boolean }) {
  const isHydrated = useIsHydrated();
  const invite = useInviteMember();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useKassaForm<z.input<typeof inviteMemberRequest>>(schema, {
    defaultValues: { email: "", role: "viewer" },
  });
  const submit = form.submitWith(async (values) => {
    await invite.mutateAsync(values);
    setSentTo(values.email);
    form.reset();
  });
  const { errors } = form.formState;
  return (
    <section aria-labelledby="invite-title" className="mt-6">
      <h2 id="invite-title" className="text-xl font-semibold">
        Invite a member
      </h2>
      <p className="mt-1 max-w-2xl text-sm">
        They get an e-mail with a link that works once, for 7 days, to choose a password and join.
      </p>
      <form className="grid max-w-2xl gap-x-4 sm:grid-cols-2" onSubmit={submit} noValidate>
        <Field
          label="E-mail address"
          name="email"
          type="email"
          idPrefix="invite"
          autoComplete="off"
          errors={errors}
          register={form.register("email")}
        />
        <Field
          label="Role"
          name="role"
          idPrefix="invite"
          errors={errors}
          hint={rolesHint(assignableRoles(role))}
        >
          <select
            id="invite-role"
            className={selectClass}
            aria-describedby="invite-role-hint"
            defaultValue={selectDefault(form, "role")}
            {...form.register("role")}
          >
            {assignableRoles(role).map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </Field>
        <div className="self-end">
          <button type="submit" disabled={!isHydrated || invite.isPending} className={`mt-3 ${buttonClass}`}>
            {invite.isPending ? "Sending…" : "Send invitation"}
          </button>
        </div>
      </form>
      <FormError message={form.formError} />
      <p className="mt-2 text-sm font-medium" aria-live="polite">
        {sentTo && `Invitation sent to ${sentTo}.`}
      </p>
      {sentTo && isMailInLog && <MailInLogNote />}
    </section>
  );
}
