import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { PaymentLinkForm } from "./payment-link-form";

export const metadata: Metadata = { title: "New payment link" };

export default async function NewPaymentLinkPage() {
  await requireSession({ permission: "invoices.manage" });
  return <PaymentLinkForm />;
}
