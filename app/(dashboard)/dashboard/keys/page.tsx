import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { can } from "@/lib/team/permissions";
import { KeysClient } from "./keys-client";

export const metadata: Metadata = { title: "API keys" };

export default async function KeysPage() {
  const session = await requireSession({ permission: "api_keys.view" });
  return <KeysClient mayMoveMoney={can(session.role, "payouts.create")} />;
}
