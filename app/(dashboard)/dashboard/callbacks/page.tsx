import type { Metadata } from "next";
import { hasSecondFactor } from "@/lib/auth/has-second-factor";
import { requireSession } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { can } from "@/lib/team/permissions";
import { CallbacksClient } from "./callbacks-client";

export const metadata: Metadata = { title: "Callbacks" };

export default async function CallbacksPage() {
  const session = await requireSession({ permission: "callbacks.manage" });
  return (
    <CallbacksClient
      hasTotp={await hasSecondFactor(getDb(), session.userId)}
      isOwner={can(session.role, "callbacks.choose_key")}
    />
  );
}
