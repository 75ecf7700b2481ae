import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listInvoices } from "@/app/(dashboard)/dashboard/invoices/list-invoices";
import { cancelInvoiceById } from "@/app/api/dashboard/invoices/[id]/cancel/cancel-by-id";
import { KassaError } from "@/lib/errors";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { formatAmount } from "@/lib/money";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, createFixedInvoice, pay } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";

/** The dashboard's invoice endpoints: Cancel by id (the public API's cancel rules) and the filtered list. */
describe(`dashboard invoices on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  let otherId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Invoice Page");
    otherId = await createTestMerchant(database, "Someone Else");
  });
  afterAll(() => database.drop());

  const refusal = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KassaError);
    return error as KassaError;
  };

  it("cancels an open invoice by id, and nobody else's", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
    const stranger = await refusal(cancelInvoiceById(database.db, { merchantId: otherId, id: invoice.id }));
    expect(stranger).toMatchObject({ code: "not_found", status: 404 });
    expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("pending");

    await cancelInvoiceById(database.db, { merchantId, id: invoice.id });
    const cancelled = (await loadInvoiceById(database.db, invoice.id))!;
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.invoice.statusReason).toBe("cancelled_by_merchant");
  });

  it("refuses a paid invoice with the API's code in words for the page, and an id that is not an invoice", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC", { timer: false });
    await pay(database.db, invoice, formatAmount(invoice.invoice.senderAmount!));
    await confirm(database.db, "BTC");
    expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("confirmed");

    const paid = await refusal(cancelInvoiceById(database.db, { merchantId, id: invoice.id }));
    expect(paid.status).toBe(400);
    expect(paid.message).toBe(
      "This invoice can no longer be cancelled: it is already paid, failed or cancelled.",
    );
    expect(paid.fields).toEqual({ code: "invalid_invoice_state" });
    expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("confirmed");

    const missing = await refusal(cancelInvoiceById(database.db, { merchantId, id: 999_999_999 }));
    expect(missing.code).toBe("not_found");
  });

  it("lists with status and exception badges, filters by them, and searches by a literal prefix", async () => {
    const shop = await createTestMerchant(database, "List Shop");
    const due = (invoice: Awaited<ReturnType<typeof createFixedInvoice>>) => invoice.invoice.senderAmount!;
    // Overpaid: twice the amount due, confirmed.
    const over = await createFixedInvoice(database.db, shop, "LTC", { timer: false, title: "Over 100%" });
    await pay(database.db, over, due(over) * 2n);
    // Underpaid: a fill_or_kill invoice without a timer fails at once on a short payment.
    const under = await createFixedInvoice(database.db, shop, "LTC", { timer: false, title: "Under" });
    await pay(database.db, under, due(under) / 2n);
    await confirm(database.db, "LTC");
    // Late: cancelled, then paid anyway.
    const late = await createFixedInvoice(database.db, shop, "DOGE", { timer: false, title: "Late one" });
    await cancelInvoiceById(database.db, { merchantId: shop, id: late.id });
    await pay(database.db, late, due(late));
    await confirm(database.db, "DOGE");
    const open = await createFixedInvoice(database.db, shop, "DOGE", { title: "Over the moon" });

    const all = await listInvoices(database.db, { merchantId: shop, filter: {} });
    expect(all.map((row) => [row.title, row.status, row.exceptions])).toEqual([
      ["Over the moon", "pending", []],
      ["Late one", "cancelled", ["late"]],
      ["Under", "failed", ["underpaid"]],
      ["Over 100%", "confirmed", ["overpaid"]],
    ]);
    const titles = async (filter: Parameters<typeof listInvoices>[1]["filter"]) =>
      (await listInvoices(database.db, { merchantId: shop, filter })).map((row) => row.title);
    expect(await titles({ exception: "overpaid" })).toEqual(["Over 100%"]);
    expect(await titles({ exception: "underpaid" })).toEqual(["Under"]);
    expect(await titles({ exception: "late" })).toEqual(["Late one"]);
    expect(await titles({ status: "pending" })).toEqual(["Over the moon"]);
    // A prefix of the title or of the merchant's own id, case-insensitive; % is a character, not a wildcard.
    expect(await titles({ prefix: "over" })).toEqual(["Over the moon", "Over 100%"]);
    expect(await titles({ prefix: "Over 100%" })).toEqual(["Over 100%"]);
    expect(await titles({ prefix: "O%" })).toEqual([]);
    expect(await titles({ prefix: open.foreignId })).toEqual(["Over the moon"]);
    // Another merchant's list holds none of these.
    expect(await listInvoices(database.db, { merchantId: otherId, filter: {} })).toEqual([]);
  });
});
