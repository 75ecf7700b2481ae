import type { Metadata } from "next";
import { hasSecondFactor } from "@/lib/auth/has-second-factor";
import { requireSession } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { can } from "@/lib/team/permissions";
import { KeysClient } from "./keys-client";

export const metadata: Metadata = { title: "API keys" };

export default async function KeysPage() {
  const session = await requireSession({ permission: "api_keys.view" });
  return (
    <KeysClient
      hasTotp={await hasSecondFactor(getDb(), session.userId)}
      mayMoveMoney={can(session.role, "payouts.create")}
    />
  );
}
