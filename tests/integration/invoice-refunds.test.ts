import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KassaError } from "@/lib/errors";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { parseDecimal } from "@/lib/money";
import { payoutRequest } from "@/lib/schemas/dashboard";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";
import { listRefunds } from "@/lib/withdrawals/list-refunds";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, createFixedInvoice, pay, pricing } from "../support/invoices";
import { createTestMerchant, fieldsOf } from "../support/merchants";

const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";

/**
 * "Refund owed" on the invoice page: a payout recorded against the invoice (refund_of), refused
 * beyond what the invoice owes, whoever asks and however many ask at once.
 */
describe(`refunds recorded against an invoice on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  let otherId: number;
  let counter = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Refund Shop");
    otherId = await createTestMerchant(database, "Refund Other");
    for (const [currency, amount] of [
      ["BTC", "10"],
      ["EUR", "100000"],
    ] as const) {
      await creditSandboxBalance(database.db, {
        merchantId,
        currency,
        amount: parseDecimal(amount),
        isSandbox: true,
      });
    }
  });
  afterAll(() => database.drop());

  /** The payout form's request, as the prefilled refund link fills it (refund_of as the text it carries). */
  const refund = (invoiceId: number, fields: Record<string, unknown>, merchant = merchantId) => {
    counter++;
    const body = payoutRequest.parse({
      currency: "BTC",
      address: BTC_ADDRESS,
      foreign_id: `refund-${counter}-${Math.random().toString(36).slice(2)}`,
      end_user_reference: `payee-${counter}`,
      sender_type: "legal",
      sender_data: { legal_name: "Refund Shop", country_of_registration: "DEU" },
      receiver_type: "self",
      refund_of: String(invoiceId),
      ...fields,
    });
    return createWithdrawal(database.db, {
      ...withdrawalInput(merchant, body, pricing),
      refundOf: body.refund_of,
    });
  };

  /** An invoice paid half in BTC: it fails short at once (no timer), owing the customer all they paid. */
  async function shortInvoice() {
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC", { timer: false });
    const half = invoice.invoice.senderAmount! / 2n;
    await pay(database.db, invoice, half);
    await confirm(database.db, "BTC");
    const settled = (await loadInvoiceById(database.db, invoice.id))!;
    expect(settled.status).toBe("failed");
    expect(settled.invoice.confirmedAmount).toBe(half);
    return { id: invoice.id, owed: half };
  }

  it("records refunds against the invoice and refuses one unit more than is left", async () => {
    const { id, owed } = await shortInvoice();
    const firstPart = owed / 3n;
    const first = await refund(id, { amount: formatUnits(firstPart) });

    const over = await fieldsOf(refund(id, { amount: formatUnits(owed - firstPart + 1n) }));
    expect(over.amount).toBe(
      `Invoice ${id} has ${formatUnits(owed - firstPart)} BTC left to refund; this payout would send ${formatUnits(owed - firstPart + 1n)} BTC.`,
    );

    // The rest, converted from the EUR balance: amount_to is what reaches the customer.
    const rest = await refund(id, {
      currency: "EUR",
      convert_to: "BTC",
      amount_to: formatUnits(owed - firstPart),
    });
    const refunds = await listRefunds(database.db, { merchantId, invoiceId: id });
    expect(refunds.map((r) => [r.id, r.amount, r.currency, r.isReturned])).toEqual([
      [first.id, firstPart, "BTC", false],
      [rest.id, owed - firstPart, "BTC", false],
    ]);

    const full = await fieldsOf(refund(id, { amount: "0.001" }));
    expect(full.amount).toBe(`Invoice ${id} is already refunded in full (${formatUnits(owed)} BTC).`);
  });

  it("refuses a refund in another coin, of an invoice that owes nothing, and of another merchant's invoice", async () => {
    const { id } = await shortInvoice();
    const otherCoin = await fieldsOf(
      refund(id, { currency: "EUR", convert_to: "LTC", amount_to: "0.5", address: LTC_ADDRESS }),
    );
    expect(otherCoin.convert_to).toBe(
      `A refund of invoice ${id} is sent in BTC, the currency the customer paid with.`,
    );

    const open = await createFixedInvoice(database.db, merchantId, "BTC");
    expect((await fieldsOf(refund(open.id, { amount: "0.0001" }))).refund_of).toBe(
      `Invoice ${open.id} owes no refund: only an invoice that failed short, was overpaid, or was paid after it closed does.`,
    );

    const stranger = await createFixedInvoice(database.db, otherId, "BTC");
    expect((await fieldsOf(refund(stranger.id, { amount: "0.0001" }))).refund_of).toBe(
      `There is no invoice ${stranger.id} in your account to refund.`,
    );
    expect(await listRefunds(database.db, { merchantId, invoiceId: id })).toEqual([]);
  });

  it("owes back the excess of confirmed payments only, not of a payment still unconfirmed", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC", { timer: false });
    const due = invoice.invoice.senderAmount!;
    const extra = due / 10n;
    await pay(database.db, invoice, due + extra);
    await confirm(database.db, "BTC");
    const settled = (await loadInvoiceById(database.db, invoice.id))!;
    expect([settled.status, settled.invoice.statusReason]).toEqual(["confirmed", "overpaid"]);
    // Another payment arrives, seen but not confirmed: it may never be the merchant's.
    await pay(database.db, settled, extra);
    expect((await loadInvoiceById(database.db, invoice.id))!.invoice.paidAmount).toBe(due + 2n * extra);

    const over = await fieldsOf(refund(invoice.id, { amount: formatUnits(extra + 1n) }));
    expect(over.amount).toBe(
      `Invoice ${invoice.id} has ${formatUnits(extra)} BTC left to refund; this payout would send ${formatUnits(extra + 1n)} BTC.`,
    );
    const sent = await refund(invoice.id, { amount: formatUnits(extra) });
    const refunds = await listRefunds(database.db, { merchantId, invoiceId: invoice.id });
    expect(refunds.map((r) => [r.id, r.amount])).toEqual([[sent.id, extra]]);
  });

  it("lets only one of two simultaneous full refunds through", async () => {
    const { id, owed } = await shortInvoice();
    const results = await Promise.allSettled([
      refund(id, { amount: formatUnits(owed) }),
      refund(id, { currency: "EUR", convert_to: "BTC", amount_to: formatUnits(owed) }),
    ]);
    const accepted = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected");
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const error = (refused[0] as PromiseRejectedResult).reason as KassaError;
    expect(error).toBeInstanceOf(KassaError);
    expect(error.status).toBe(400);
    expect(Object.values(error.fields ?? {})).toEqual([
      `Invoice ${id} is already refunded in full (${formatUnits(owed)} BTC).`,
    ]);
    const refunds = await listRefunds(database.db, { merchantId, invoiceId: id });
    expect(refunds.map((r) => r.amount)).toEqual([owed]);
  });
});

const LTC_ADDRESS = "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh";

/** 10^-8 units as the shortest decimal text, written out independently of lib/money. */
function formatUnits(units: bigint): string {
  const whole = units / 100_000_000n;
  const fraction = (units % 100_000_000n).toString().padStart(8, "0").replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}
