import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { isMailPrintedToLog } from "@/lib/mail/is-mail-printed-to-log";
import { getConfig } from "@/lib/runtime";
import { can } from "@/lib/team/permissions";
import { TeamClient } from "./team-client";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage() {
  const session = await requireSession({ permission: "team.view" });
  return (
    <TeamClient
      role={session.role}
      canManage={can(session.role, "team.manage")}
      isMailInLog={isMailPrintedToLog(getConfig())}
    />
  );
}
