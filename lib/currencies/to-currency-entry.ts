import "server-only";

import type { z } from "zod";
import { formatAmount, formatPercent } from "@/lib/money";
import type { currencyEntry } from "@/lib/schemas/platform";
import type { Currency } from "./registry";

/** A registry entry in the wire shape of /currencies/list. */
export function toCurrencyEntry(currency: Currency): z.input<typeof currencyEntry> {
  return {
    id: currency.id,
    type: currency.kind,
    currency: currency.code,
    name: currency.name,
    network: currency.network,
    minimum_amount: formatAmount(currency.minimumAmount),
    minimum_withdrawal_amount: formatAmount(currency.minimumWithdrawalAmount),
    deposit_fee_percent: formatPercent(currency.depositFeePpm),
    withdrawal_fee_percent: formatPercent(currency.withdrawalFeePpm),
    withdrawal_network_fee: formatAmount(currency.networkFee),
    precision: currency.precision,
    confirmations_required: currency.confirmations,
    tag_supported: currency.tagSupport !== "none",
    tag_required: currency.tagSupport === "required",
    tag_name: currency.tagName,
  };
}
