import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { BulkPayoutClient } from "./bulk-payout-client";

export const metadata: Metadata = { title: "Bulk payouts" };

export default async function BulkPayoutsPage() {
  const session = await requireSession({ permission: "payouts.create" });
  return <BulkPayoutClient merchantName={session.merchantName} />;
}
