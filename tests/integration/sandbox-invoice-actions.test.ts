import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paySandboxInvoice } from "@/lib/chain/sandbox/pay-invoice";
import { KassaError } from "@/lib/errors";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { expireInvoiceNow } from "@/lib/invoices/expire-invoice-now";
import { listOpenInvoices } from "@/lib/invoices/list-open-invoices";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { runDueJobs } from "@/lib/jobs/runner";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, handlers, invoiceRequest, settings } from "../support/invoices";
import { createTestMerchant, fieldsOf } from "../support/merchants";

/** The sandbox panel's one-click actions on an invoice: pay exact, under, over (blocks mined), expire now. */
describe(`sandbox actions on an invoice on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  let otherId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Sandbox Panel");
    otherId = await createTestMerchant(database, "Sandbox Other");
  });
  afterAll(() => database.drop());

  /** Pays with one click and lets the jobs the mined blocks queued run, as the server's runner would. */
  async function click(id: number, how: "exact" | "under" | "over") {
    const payment = await paySandboxInvoice(database.db, {
      merchantId,
      invoiceId: id,
      how,
    });
    await runDueJobs(database.db, handlers);
    return { payment, after: (await loadInvoiceById(database.db, id))! };
  }

  it("pays exactly what is due, and the invoice is paid once the blocks are mined", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
    const due = invoice.invoice.senderAmount!;
    const { payment, after } = await click(invoice.id, "exact");
    expect(payment).toMatchObject({ currency: "LTC", amount: due });
    expect([after.status, after.invoice.statusReason]).toEqual(["confirmed", "paid"]);
    expect(after.invoice.confirmedAmount).toBe(due);
  });

  it("pays half (waiting for the rest), then a tenth more than the rest (overpaid)", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC", { type: "good_until_expired" });
    const due = invoice.invoice.senderAmount!;
    const half = due / 2n; // LTC has 8 decimals: no rounding beyond the unit
    const under = await click(invoice.id, "under");
    expect(under.payment.amount).toBe(half);
    expect([under.after.status, under.after.invoice.statusReason]).toEqual(["pending", "awaiting_remainder"]);

    const rest = due - half;
    const over = await click(invoice.id, "over");
    expect(over.payment.amount).toBe(rest + (rest + 9n) / 10n);
    expect([over.after.status, over.after.invoice.statusReason]).toEqual(["confirmed", "overpaid"]);
  });

  it("expires an open invoice now, and only this merchant's open ones", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "DOGE");
    expect((await listOpenInvoices(database.db, { merchantId })).map((i) => i.id)).toContain(invoice.id);
    const stranger = await expireInvoiceNow(database.db, { merchantId: otherId, invoiceId: invoice.id }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(stranger).toBeInstanceOf(KassaError);
    expect((stranger as KassaError).status).toBe(404);

    await expireInvoiceNow(database.db, { merchantId, invoiceId: invoice.id });
    const after = (await loadInvoiceById(database.db, invoice.id))!;
    expect([after.status, after.invoice.statusReason]).toEqual(["failed", "expired"]);
    expect((await listOpenInvoices(database.db, { merchantId })).map((i) => i.id)).not.toContain(invoice.id);

    expect(
      (await fieldsOf(expireInvoiceNow(database.db, { merchantId, invoiceId: invoice.id }))).invoice,
    ).toBe("This invoice is already closed.");
    expect(
      (
        await fieldsOf(
          paySandboxInvoice(database.db, {
            merchantId,
            invoiceId: invoice.id,
            how: "exact",
          }),
        )
      ).invoice,
    ).toBe("This invoice is closed: it takes no more payments here.");
  });

  it("asks to choose a currency first when a timer invoice has none yet, as a field error", async () => {
    // A timer invoice without sender_currency starts `pending` (DESIGN.md section 6), without an address.
    const created = await createInvoice(database.db, { merchantId, request: invoiceRequest(), settings });
    const record = (await loadInvoiceById(database.db, created.id))!;
    expect([record.status, record.invoice.senderCurrency]).toEqual(["pending", null]);
    const answer = paySandboxInvoice(database.db, {
      merchantId,
      invoiceId: created.id,
      how: "exact",
    });
    expect((await fieldsOf(answer)).invoice).toBe(
      "The customer has not chosen a currency yet: choose one on the checkout page first.",
    );
  });
});
