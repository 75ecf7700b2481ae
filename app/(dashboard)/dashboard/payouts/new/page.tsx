import type { Metadata } from "next";
import { isOnSandboxChain } from "@/lib/chain/sandbox/address-nets";
import { CURRENCIES } from "@/lib/currencies/registry";
import { PayoutPage } from "./payout-page";

export const metadata: Metadata = { title: "New payout" };

export default function NewPayoutPage() {
  // Which destinations take testnet addresses: those on the sandbox chain (lib/chain/sandbox/address-nets.ts).
  return (
    <PayoutPage sandboxCurrencies={CURRENCIES.filter((c) => isOnSandboxChain(c.code)).map((c) => c.code)} />
  );
}
