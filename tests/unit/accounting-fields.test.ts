import { describe, expect, it } from "vitest";
import { accountingFields } from "@/lib/transactions/accounting-fields";
import { expandTypeFilter } from "@/lib/transactions/kinds";

describe("the explorer's filter and export fields", () => {
  it("filters payouts by what a merchant means: every kind of withdrawal", () => {
    expect(expandTypeFilter(["withdrawal"]).sort()).toEqual([
      "withdrawal",
      "withdrawal_exchange",
      "withdrawal_instant",
    ]);
    expect(expandTypeFilter(["withdrawal_exchange", "invoice"])).toEqual(["withdrawal_exchange", "invoice"]);
  });

  it("sums a payout's fees, takes what reached the address as net and the fiat it left in as value", () => {
    const fields = accountingFields({
      id: 7,
      type: "withdrawal_exchange",
      crypto_address: { id: 3, currency: "EUR", convert_to: "BTC", address: "bc1qdest", tag: null },
      currency_sent: { currency: "EUR", amount: "100.00000000" },
      currency_received: { currency: "BTC", amount: "0.00165000" },
      transactions: [
        { id: 7, currency: "EUR", transaction_type: "exchange", type: "exchange", amount: "100.00000000" },
        {
          id: 9,
          currency: "BTC",
          transaction_type: "blockchain",
          type: "withdrawal",
          amount: "0.00165000",
          address: "bc1qdest",
          txid: "ab12",
        },
      ],
      fees: [
        { type: "exchange", currency: "EUR", amount: "1.00000000" },
        { type: "mining", currency: "EUR", amount: "1.23000000" },
      ],
      error: "",
      status: "confirmed",
    });
    expect(fields).toEqual({
      fee: "2.23000000",
      fee_currency: "EUR",
      net: "0.00165000",
      net_currency: "BTC",
      destination_address: "bc1qdest",
      txid: "ab12",
      fiat_value: "100.00000000",
      fiat_currency: "EUR",
    });
  });

  it("leaves the fiat value empty for a crypto-only movement rather than inventing one", () => {
    const fields = accountingFields({
      id: 8,
      type: "deposit",
      currency_sent: { currency: "BTC", amount: "0.01000000" },
      currency_received: { currency: "BTC", amount: "0.01000000", amount_minus_fee: "0.00995000" },
      transactions: [],
      fees: [{ type: "deposit", currency: "BTC", amount: "0.00005000" }],
      error: "",
      status: "confirmed",
    });
    expect([fields.net, fields.fiat_value, fields.fiat_currency, fields.txid]).toEqual([
      "0.00995000",
      "",
      "",
      "",
    ]);
  });
});
