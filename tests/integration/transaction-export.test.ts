import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { parseDecimal } from "@/lib/money";
import { withdrawalRequest } from "@/lib/schemas/withdrawals";
import { loadAccountingFields } from "@/lib/transactions/accounting-fields";
import { expandTypeFilter } from "@/lib/transactions/kinds";
import { listTransactions } from "@/lib/transactions/list-transactions";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, createFixedInvoice, pay, pricing } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";

const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";

/** The explorer's export: what an accountant needs of each transaction, from what is stored. */
describe(`the transaction export's accounting fields on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Books Shop");
  });
  afterAll(() => database.drop());

  const exported = async (types: string[]) => {
    const page = await listTransactions(database.db, {
      merchantId,
      filter: { types: expandTypeFilter(types) },
    });
    const fields = await loadAccountingFields(database.db, page.rows);
    return page.rows.map((row) => ({ id: row.id, type: row.type, ...fields.get(row.id)! }));
  };

  it("gives a paid invoice's fee and net as booked, the address and txid paid, and its price in fiat", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC", { timer: false });
    const paid = await pay(database.db, invoice, invoice.invoice.senderAmount!);
    await confirm(database.db, "BTC");
    const [row] = await exported(["invoice"]);
    expect(row).toMatchObject({
      id: invoice.id,
      type: "invoice",
      fee_currency: "EUR",
      net_currency: "EUR",
      destination_address: invoice.address!.address,
      txid: paid.txid,
      fiat_value: "100.00000000",
      fiat_currency: "EUR",
    });
    // Credited in EUR: the BTC due (rounded up) is worth a hair over 100 EUR; of that, the deposit fee
    // is 0.5% rounded up and the rest is the net, worked out here from the two cells.
    const fee = parseDecimal(row!.fee);
    const gross = fee + parseDecimal(row!.net);
    expect(gross).toBeGreaterThanOrEqual(parseDecimal("100"));
    expect(gross).toBeLessThan(parseDecimal("100.01"));
    expect(fee).toBe((gross * 5n + 999n) / 1000n);
  });

  it("gives a payout's fees and what it sends, and no fiat value for a crypto-only payout", async () => {
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "BTC",
      amount: parseDecimal("1"),
      isSandbox: true,
    });
    const payout = await createWithdrawal(database.db, {
      ...withdrawalInput(
        merchantId,
        withdrawalRequest.parse({
          currency: "BTC",
          amount: "0.01",
          address: BTC_ADDRESS,
          foreign_id: "books-payout",
          end_user_reference: "payee",
          sender_type: "legal",
          sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
          receiver_type: "self",
        }),
        pricing,
      ),
    });
    // "withdrawal" is every payout: the filter a merchant means.
    const [row] = await exported(["withdrawal"]);
    // BTC: no withdrawal fee, a 0.00002 network fee (the registry's).
    expect(row).toEqual({
      id: payout.id,
      type: "withdrawal",
      fee: "0.00002000",
      fee_currency: "BTC",
      net: "0.01000000",
      net_currency: "BTC",
      destination_address: BTC_ADDRESS,
      txid: "",
      fiat_value: "",
      fiat_currency: "",
    });
    expect(expandTypeFilter(["withdrawal"]).sort()).toEqual([
      "withdrawal",
      "withdrawal_exchange",
      "withdrawal_instant",
    ]);
  });
});
