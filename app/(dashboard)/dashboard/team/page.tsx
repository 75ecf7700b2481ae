import type { Metadata } from "next";
import { hasSecondFactor } from "@/lib/auth/has-second-factor";
import { requireSession } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { can } from "@/lib/team/permissions";
import { TeamClient } from "./team-client";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage() {
  const session = await requireSession({ permission: "team.view" });
  return (
    <TeamClient
      hasTotp={await hasSecondFactor(getDb(), session.userId)}
      role={session.role}
      canManage={can(session.role, "team.manage")}
    />
  );
}
