import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { queryRows } from "@/lib/db/client";
import { cancelInvoice } from "@/lib/invoices/cancel-invoice";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { formatAmount } from "@/lib/money";
import { transactionInfoResponse } from "@/lib/schemas/transactions";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { findTransactionId } from "@/lib/transactions/find-transaction";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, createFixedInvoice, invoiceRequest, pay, settings, testKeys } from "../support/invoices";

describe(`transactions/info for invoices and deposits on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  const info = async (id: number) => {
    const described = await describeTransaction(database.db, id);
    // Every answer has the documented shape.
    expect(transactionInfoResponse.safeParse(described).success).toBe(true);
    return described;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = (
      await createMerchant(database.db, database.box, {
        name: "Info",
        email: "info@example.com",
        password: "long password 1",
      })
    ).merchantId;
  });
  afterAll(() => database.drop());

  it("describes an invoice through its states: pending, not_confirmed, confirmed", async () => {
    const created = await createInvoice(database.db, { merchantId, request: invoiceRequest(), settings });
    expect(await info(created.id)).toMatchObject({
      type: "invoice",
      status: "pending",
      transactions: [],
      fees: [],
    });
    expect(await info(created.id)).not.toHaveProperty("currency_sent");

    const invoice = await createFixedInvoice(database.db, merchantId, "BTC");
    await pay(database.db, invoice, invoice.invoice.senderAmount!);
    const seen = await info(invoice.id);
    expect(seen).toMatchObject({
      status: "not_confirmed",
      crypto_address: {
        currency: "BTC",
        address: invoice.address!.address,
        foreign_id: invoice.foreignId,
        tag: null,
      },
      currency_sent: { currency: "BTC" },
    });
    expect(seen.transactions[0]).toMatchObject({
      transaction_type: "blockchain",
      type: "deposit",
      confirmations: "0",
    });

    await confirm(database.db, "BTC");
    const settled = await info(invoice.id);
    expect(settled.status).toBe("confirmed");
    expect(settled.transactions.map((t) => t.transaction_type)).toEqual(["blockchain", "exchange"]);
    expect(settled.fees).toEqual([
      { type: "fee_crypto_deposit", currency: "EUR", amount: expect.stringMatching(/^0\.5\d{7}$/) },
    ]);
    expect(settled.currency_received).toMatchObject({ currency: "EUR" });
    expect(settled.additional_details).toMatchObject({
      invoice_status: "confirmed",
      status_reason: "paid",
      spread_percent: "0.5",
    });
    const txid = settled.transactions[0]!.txid!;
    expect(await findTransactionId(database.db, merchantId, { txid })).toBe(invoice.id);
    expect(await findTransactionId(database.db, merchantId, { foreign_id: invoice.foreignId })).toBe(
      invoice.id,
    );
  });

  it("describes failed and cancelled invoices as declined and cancelled, with the public error texts", async () => {
    // No timer: nothing to top up by, so the short payment fails the invoice when it confirms.
    const short = await createFixedInvoice(database.db, merchantId, "LTC", { timer: false });
    const due = short.invoice.senderAmount!;
    await pay(database.db, short, due / 2n);
    await confirm(database.db, "LTC");
    const failed = await info(short.id);
    expect(failed).toMatchObject({
      status: "declined",
      error: "Timer expired. User paid less than requested.",
      // The merchant was credited: the amounts are there although the invoice failed.
      currency_sent: {
        currency: "LTC",
        amount: formatAmount(due),
        remaining_amount: formatAmount(due - due / 2n),
      },
      currency_received: { currency: "EUR" },
      additional_details: { invoice_status: "failed", status_reason: "underpaid" },
    });

    const created = await createInvoice(database.db, { merchantId, request: invoiceRequest(), settings });
    await cancelInvoice(database.db, { merchantId, foreignId: created.foreignId });
    expect(await info(created.id)).toMatchObject({
      status: "cancelled",
      error: "Cancelled by the merchant.",
    });
  });

  it("describes deposits to permanent addresses, converted or not", async () => {
    const latestDeposit = async () =>
      Number(
        (
          await queryRows<{ id: string }>(
            database.db,
            sql`select id from transactions where type = 'deposit' order by id desc limit 1`,
          )
        )[0]!.id,
      );
    const plain = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "cust-9",
      currency: "ETH",
    });
    await pay(database.db, { address: { address: plain.address, tag: "", currency: "ETH" } }, "0.5");
    const plainId = await latestDeposit();
    expect(await info(plainId)).toMatchObject({
      type: "deposit",
      status: "not_confirmed",
      crypto_address: { id: plain.id, foreign_id: "cust-9", address: plain.address },
      currency_sent: { currency: "ETH", amount: "0.50000000" },
      currency_received: { currency: "ETH", amount: "0.50000000", amount_minus_fee: "0.49750000" },
      fees: [],
    });
    await confirm(database.db, "ETH");
    expect(await info(plainId)).toMatchObject({
      status: "confirmed",
      fees: [{ type: "deposit", currency: "ETH", amount: "0.00250000" }],
    });

    const converting = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "cust-9",
      currency: "BTC",
      convertTo: "EUR",
    });
    await pay(database.db, { address: { address: converting.address, tag: "", currency: "BTC" } }, "0.01");
    const convertedId = await latestDeposit();
    const pending = await info(convertedId);
    expect(pending.type).toBe("deposit_exchange");
    // The rate is fixed when the payment is seen: 0.01 BTC × 65000 USD × (1 − 0.5%) ÷ 1.08 USD per EUR
    // = 598.842592592…, rounded down to EUR's 8 fraction digits.
    expect(pending.currency_received).toMatchObject({ currency: "EUR", amount: "598.84259259" });
    await confirm(database.db, "BTC");
    const converted = await info(convertedId);
    expect(converted.currency_received).toMatchObject({ currency: "EUR", amount: "598.84259259" });
    expect(converted.transactions.map((t) => t.transaction_type)).toEqual(["blockchain", "exchange"]);
    expect(converted.crypto_address).toMatchObject({ convert_to: "EUR" });
    expect(converted.fees[0]).toMatchObject({ type: "exchange", currency: "EUR" });
    expect(converted.additional_details).toHaveProperty("rate");
  });
});
