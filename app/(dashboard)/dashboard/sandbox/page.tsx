import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { invoiceStatusLabel } from "@/components/dashboard/invoice-status";
import { requireSession } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { listOpenInvoices } from "@/lib/invoices/list-open-invoices";
import { getConfig } from "@/lib/runtime";
import type { OpenInvoiceRow } from "./invoice-actions";
import { SandboxClient } from "./sandbox-client";

export const metadata: Metadata = { title: "Sandbox" };

export default async function SandboxPage() {
  if (!getConfig().isSandbox) notFound();
  const session = await requireSession({ permission: "sandbox.use" });
  const open = await listOpenInvoices(getDb(), { merchantId: session.merchantId });
  const invoices: OpenInvoiceRow[] = open.map((invoice) => ({
    id: invoice.id,
    title: invoice.title,
    foreignId: invoice.foreignId,
    label: invoiceStatusLabel(invoice.status, invoice.reason),
    amount: dashboardAmount(invoice.amount, invoice.currency),
    payCurrency: invoice.payCurrency,
  }));
  return <SandboxClient invoices={invoices} />;
}
