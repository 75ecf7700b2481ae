import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { isOnSandboxChain } from "@/lib/chain/sandbox/address-nets";
import { CURRENCIES } from "@/lib/currencies/registry";
import { PayoutPage } from "./payout-page";
import type { PayoutPrefill } from "./payout-values";

export const metadata: Metadata = { title: "New payout" };

type Search = Promise<Record<string, string | string[] | undefined>>;

const PREFILLED = [
  "currency",
  "convert_to",
  "amount",
  "amount_to",
  "foreign_id",
  "end_user_reference",
  "refund_of",
] as const;

export default async function NewPayoutPage({ searchParams }: { searchParams: Search }) {
  const session = await requireSession({ permission: "payouts.create" });
  // A refund from the invoice page arrives prefilled; the form's own checks apply to these values.
  const search = await searchParams;
  const prefill: PayoutPrefill = {};
  for (const key of PREFILLED) {
    const value = search[key];
    if (typeof value === "string" && value.length <= 100) prefill[key] = value;
  }
  // Which destinations take testnet addresses: those on the sandbox chain (lib/chain/sandbox/address-nets.ts).
  return (
    <PayoutPage
      merchantName={session.merchantName}
      prefill={prefill}
      sandboxCurrencies={CURRENCIES.filter((c) => isOnSandboxChain(c.code)).map((c) => c.code)}
    />
  );
}
