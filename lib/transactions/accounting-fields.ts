import "server-only";

import { findCurrency } from "@/lib/currencies/registry";
import { formatAmount, parseDecimal } from "@/lib/money";
import type { TransactionInfo } from "@/lib/schemas/transactions";

export type AccountingFields = {
  fee: string;
  fee_currency: string;
  net: string;
  net_currency: string;
  destination_address: string;
  txid: string;
  fiat_value: string;
  fiat_currency: string;
};

const isFiat = (code: string) => findCurrency(code)?.kind === "fiat";

/**
 * What an accountant needs of a transaction, read from its transactions/info (the same figures the
 * public API reports, nothing computed anew):
 * - fee: its fees summed, in their currency (every kind charges its fees in one currency);
 * - net: what arrived after fees: credited to the balance (invoice, deposit), reached the address
 *   (payout) or the receiving balance (exchange);
 * - destination_address: the address paid to (invoice, deposit) or sent to (payout);
 * - txid: its blockchain transactions, space-separated;
 * - fiat_value: its value in fiat as recorded when it happened: what it credited or sent in fiat,
 *   else the fiat amount it was asked or debited in. Kassa keeps no fiat price of a crypto-only
 *   movement, so one has none (empty rather than a value at today's rate).
 */
export function accountingFields(info: TransactionInfo): AccountingFields {
  const feeTotals = new Map<string, bigint>();
  for (const fee of info.fees) {
    feeTotals.set(fee.currency, (feeTotals.get(fee.currency) ?? 0n) + parseDecimal(String(fee.amount)));
  }
  const fees = [...feeTotals].filter(([, amount]) => amount !== 0n);
  const received = info.currency_received;
  const fiat = [received, info.currency_sent].find((side) => side && isFiat(side.currency));
  const txids = info.transactions
    .filter((entry) => entry.transaction_type === "blockchain" && entry.txid)
    .map((entry) => entry.txid);
  return {
    fee: fees.map(([, amount]) => formatAmount(amount)).join(";"),
    fee_currency: fees.map(([currency]) => currency).join(";"),
    net: received ? String(received.amount_minus_fee ?? received.amount) : "",
    net_currency: received?.currency ?? "",
    destination_address: info.crypto_address?.address ?? "",
    txid: txids.join(" "),
    fiat_value: fiat ? String(fiat.amount) : "",
    fiat_currency: fiat?.currency ?? "",
  };
}
