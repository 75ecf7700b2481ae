"use client";

import { useState } from "react";
import type { z } from "zod";
import { buttonClass, Field, secondaryButtonClass, selectClass } from "@/components/forms/field";
import { selectDefault } from "@/components/forms/field-defaults";
import { FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { type Team, useChangeRole, useRemoveMember } from "@/components/query/use-team";
import { formatDateTime } from "@/lib/format-date-time";
import type { changeRoleRequest } from "@/lib/schemas/team";
import type { Role } from "@/lib/team/permissions";
import { assignableRoles, mayManageRole } from "./role-options";

const schema = formSchema(() => import("@/lib/schemas/team").then((m) => m.changeRoleRequest));

type Member = Team["members"][number];

/**
 * One member, and for those who manage the team a panel to change their role or remove them
 * (confirmed in the dashboard's one dialog). Admins see no panel on an owner: only owners manage owners.
 */
export function MemberRow({
  member,
  me,
  canManage,
}: {
  member: Member;
  me: { id: number; role: Role };
  canManage: boolean;
}) {
  const isHydrated = useIsHydrated();
  const [isOpen, setOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const change = useChangeRole();
  const remove = useRemoveMember();
  const form = useKassaForm<z.input<typeof changeRoleRequest>>(schema, {
    defaultValues: { role: member.role },
  });
  const isYou = member.id === me.id;
  const mayManage = canManage && mayManageRole(me.role, member.role);
  const afterChange = (text: string) => {
    // A change to one's own role or membership ends one's own session: sign in again.
    if (isYou) window.location.assign("/login");
    setNotice(text);
    setOpen(false);
  };
  const saveRole = form.submitWith(async (values) => {
    await change.mutateAsync({ id: member.id, body: values });
    afterChange(`${member.email} is now ${values.role}. Their sessions ended.`);
  });
  const removeMember = form.submitWith(async () => {
    if (!window.confirm(`Remove ${member.email} from the team? Their sessions end at once.`)) return;
    await remove.mutateAsync({ id: member.id, body: {} });
    afterChange(`${member.email} was removed.`);
  });
  const prefix = `member-${member.id}`;
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <div className="break-all font-medium">
            {member.email}
            {isYou && " (you)"}
          </div>
          <div className="text-sm text-slate-600 dark:text-slate-400">
            {member.role} · joined {formatDateTime(member.joined_at)}
          </div>
        </div>
        {mayManage && (
          <button
            type="button"
            className={secondaryButtonClass}
            aria-expanded={isOpen}
            aria-controls={`${prefix}-panel`}
            onClick={() => setOpen(!isOpen)}
          >
            Manage<span className="sr-only"> {member.email}</span>
          </button>
        )}
      </div>
      <p className="text-sm font-medium" aria-live="polite">
        {notice}
      </p>
      {isOpen && (
        <form
          id={`${prefix}-panel`}
          className="grid max-w-2xl gap-x-4 sm:grid-cols-2"
          onSubmit={saveRole}
          noValidate
        >
          <Field label="Role" name="role" idPrefix={prefix} errors={form.formState.errors}>
            <select
              id={`${prefix}-role`}
              className={selectClass}
              defaultValue={selectDefault(form, "role")}
              {...form.register("role")}
            >
              {assignableRoles(me.role).map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          </Field>
          <div className="mt-3 flex flex-wrap gap-2 sm:col-span-2">
            <button type="submit" disabled={!isHydrated || change.isPending} className={buttonClass}>
              {change.isPending ? "Saving…" : "Save role"}
            </button>
            <button
              type="button"
              disabled={remove.isPending}
              className={secondaryButtonClass}
              onClick={removeMember}
            >
              {remove.isPending ? "Removing…" : "Remove from team"}
            </button>
          </div>
          <div className="sm:col-span-2">
            <FormError message={form.formError} />
          </div>
        </form>
      )}
    </li>
  );
}
