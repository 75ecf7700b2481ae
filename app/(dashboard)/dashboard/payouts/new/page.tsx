import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { isOnSandboxChain } from "@/lib/chain/sandbox/address-nets";
import { CURRENCIES } from "@/lib/currencies/registry";
import { PayoutPage } from "./payout-page";

export const metadata: Metadata = { title: "New payout" };

export default async function NewPayoutPage() {
  const session = await requireSession();
  // Which destinations take testnet addresses: those on the sandbox chain (lib/chain/sandbox/address-nets.ts).
  return (
    <PayoutPage
      merchantName={session.merchantName}
      sandboxCurrencies={CURRENCIES.filter((c) => isOnSandboxChain(c.code)).map((c) => c.code)}
    />
  );
}
