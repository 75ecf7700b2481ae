import type { Metadata } from "next";
import { PayoutPage } from "./payout-page";

export const metadata: Metadata = { title: "New payout" };

export default function NewPayoutPage() {
  return <PayoutPage />;
}
