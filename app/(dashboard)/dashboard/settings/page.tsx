import { eq } from "drizzle-orm";
import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { merchants, users } from "@/lib/db/schema";
import { can } from "@/lib/team/permissions";
import { SettingsClient } from "./settings-client";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const session = await requireSession({ permission: "account.manage" });
  const [user] = await getDb()
    .select({ totp: users.totpSecretSealed })
    .from(users)
    .where(eq(users.id, session.userId));
  const [merchant] = await getDb()
    .select({ threshold: merchants.reviewThreshold })
    .from(merchants)
    .where(eq(merchants.id, session.merchantId));
  return (
    <SettingsClient
      hasTotp={Boolean(user?.totp)}
      reviewThreshold={can(session.role, "settings.manage") ? (merchant?.threshold ?? "80") : null}
    />
  );
}
