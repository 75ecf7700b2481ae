import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { isOffered } from "@/lib/currencies/offering";
import { CURRENCIES } from "@/lib/currencies/registry";
import { can } from "@/lib/team/permissions";
import { ApprovalsClient } from "./approvals-client";

export const metadata: Metadata = { title: "Approvals" };

export default async function ApprovalsPage() {
  const session = await requireSession({ permission: "payouts.approve" });
  // Limits are per balance currency: a conversion payout counts against the currency it leaves.
  const currencies = CURRENCIES.filter((c) => c.kind === "fiat" || isOffered(c.code)).map((c) => c.code);
  return <ApprovalsClient currencies={currencies} canManageLimits={can(session.role, "limits.manage")} />;
}
