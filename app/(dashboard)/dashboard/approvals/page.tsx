import type { Metadata } from "next";
import { hasSecondFactor } from "@/lib/auth/has-second-factor";
import { requireSession } from "@/lib/auth/session";
import { isOffered } from "@/lib/currencies/offering";
import { CURRENCIES } from "@/lib/currencies/registry";
import { getDb } from "@/lib/db/client";
import { can } from "@/lib/team/permissions";
import { ApprovalsClient } from "./approvals-client";

export const metadata: Metadata = { title: "Approvals" };

export default async function ApprovalsPage() {
  const session = await requireSession({ permission: "payouts.approve" });
  // Limits are per balance currency: a conversion payout counts against the currency it leaves.
  const currencies = CURRENCIES.filter((c) => c.kind === "fiat" || isOffered(c.code)).map((c) => c.code);
  return (
    <ApprovalsClient
      hasTotp={await hasSecondFactor(getDb(), session.userId)}
      currencies={currencies}
      canManageLimits={can(session.role, "limits.manage")}
    />
  );
}
