import { eq } from "drizzle-orm";
import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { SettingsClient } from "./settings-client";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const session = await requireSession({ permission: "account.manage" });
  const [user] = await getDb()
    .select({ totp: users.totpSecretSealed })
    .from(users)
    .where(eq(users.id, session.userId));
  return <SettingsClient hasTotp={Boolean(user?.totp)} />;
}
