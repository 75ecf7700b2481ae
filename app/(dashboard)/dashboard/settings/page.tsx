import type { Metadata } from "next";
import { hasSecondFactor } from "@/lib/auth/has-second-factor";
import { requireSession } from "@/lib/auth/session";
import { readReviewThreshold } from "@/lib/compliance/read-review-threshold";
import { getDb } from "@/lib/db/client";
import { readCustomerSettings } from "@/lib/merchants/read-customer-settings";
import { can } from "@/lib/team/permissions";
import { SettingsClient } from "./settings-client";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const session = await requireSession({ permission: "account.manage" });
  const db = getDb();
  const canManage = can(session.role, "settings.manage");
  return (
    <SettingsClient
      hasTotp={await hasSecondFactor(db, session.userId)}
      // Only a role that may change the threshold is shown it (settings.manage).
      reviewThreshold={canManage ? await readReviewThreshold(db, session.merchantId) : null}
      customerSettings={canManage ? await readCustomerSettings(db, session.merchantId) : null}
    />
  );
}
