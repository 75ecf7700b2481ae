import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireSession } from "@/lib/auth/session";
import { can } from "@/lib/team/permissions";
import { BatchProgress } from "./batch-progress";

export const metadata: Metadata = { title: "Bulk payout" };

export default async function BulkPayoutPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requireSession({ permission: "payouts.create" });
  const { id } = await params;
  if (!/^\d{1,15}$/.test(id)) notFound();
  return <BatchProgress id={Number(id)} canApprove={can(session.role, "payouts.approve")} />;
}
