import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { can } from "@/lib/team/permissions";
import { CallbacksClient } from "./callbacks-client";

export const metadata: Metadata = { title: "Callbacks" };

export default async function CallbacksPage() {
  const session = await requireSession({ permission: "callbacks.manage" });
  return <CallbacksClient isOwner={can(session.role, "callbacks.choose_key")} />;
}
