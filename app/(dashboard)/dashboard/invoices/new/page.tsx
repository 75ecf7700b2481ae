import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { getConfig } from "@/lib/runtime";
import { InvoiceForm } from "./invoice-form";

export const metadata: Metadata = { title: "New invoice" };

export default async function NewInvoicePage() {
  await requireSession({ permission: "invoices.manage" });
  const config = getConfig();
  return (
    <InvoiceForm timerSeconds={config.invoiceTimerSeconds} rateLockSeconds={config.pricing.rateLockSeconds} />
  );
}
