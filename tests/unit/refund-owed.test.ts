import { describe, expect, it } from "vitest";
import { refundOwed } from "@/app/(dashboard)/dashboard/invoices/[id]/refund-owed";

const base = {
  invoiceId: 7,
  refunded: 0n,
  invoiceCurrency: "EUR",
  payCurrency: "BTC",
  received: 300_000n,
  excess: 100_000n,
  late: 0n,
  foreignId: "order-7",
};

describe("refund owed on an invoice", () => {
  it("refunds the excess of an overpaid invoice from the invoice currency's balance, converted to the coin paid", () => {
    const refund = refundOwed({ ...base, status: "confirmed", reason: "overpaid" })!;
    expect(refund.owed).toBe(100_000n);
    expect(refund.left).toBe(100_000n);
    const query = new URL(refund.href, "http://x").searchParams;
    expect(Object.fromEntries(query)).toEqual({
      currency: "EUR",
      convert_to: "BTC",
      amount_to: "0.001",
      foreign_id: "refund-order-7",
      end_user_reference: "refund-7",
      refund_of: "7",
    });
  });

  it("refunds everything received when an invoice failed short, without conversion when it was priced in the coin", () => {
    const refund = refundOwed({
      ...base,
      invoiceCurrency: "BTC",
      status: "failed",
      reason: "underpaid",
    })!;
    expect(refund.left).toBe(300_000n);
    const query = new URL(refund.href, "http://x").searchParams;
    expect(query.get("currency")).toBe("BTC");
    expect(query.get("amount")).toBe("0.003");
    expect(query.has("convert_to")).toBe(false);
  });

  it("prefills only what refunds already standing leave, under a new foreign_id, and nothing once they cover it", () => {
    const overpaid = { ...base, status: "confirmed", reason: "overpaid" };
    const partly = refundOwed({ ...overpaid, refunded: 40_000n })!;
    expect(partly).toMatchObject({ owed: 100_000n, left: 60_000n });
    const query = new URL(partly.href, "http://x").searchParams;
    expect(query.get("amount_to")).toBe("0.0006");
    expect(query.get("foreign_id")).toMatch(/^refund-order-7-[0-9a-z]+$/);
    expect(refundOwed({ ...overpaid, refunded: 100_000n })!.left).toBe(0n);
  });

  it("owes nothing on a paid, expired, cancelled or still open invoice", () => {
    for (const [status, reason] of [
      ["confirmed", "paid"],
      ["failed", "expired"],
      ["cancelled", "cancelled_by_merchant"],
      ["pending", "awaiting_remainder"],
    ]) {
      expect(refundOwed({ ...base, status: status!, reason: reason! })).toBeNull();
    }
    expect(refundOwed({ ...base, status: "failed", reason: "underpaid", received: 0n })).toBeNull();
  });

  it("owes what was paid after a paid, expired or cancelled invoice closed, and counts it once on a short or overpaid one", () => {
    for (const [status, reason] of [
      ["confirmed", "paid"],
      ["failed", "expired"],
      ["cancelled", "cancelled_by_merchant"],
    ]) {
      const refund = refundOwed({ ...base, status: status!, reason: reason!, late: 70_000n })!;
      expect([refund.owed, refund.why]).toEqual([
        70_000n,
        expect.stringMatching(/after the invoice had closed/),
      ]);
    }
    // The late coins are in `received` and the excess already.
    expect(refundOwed({ ...base, status: "failed", reason: "underpaid", late: 70_000n })!.owed).toBe(
      300_000n,
    );
    expect(refundOwed({ ...base, status: "confirmed", reason: "overpaid", late: 70_000n })!.owed).toBe(
      100_000n,
    );
  });
});
