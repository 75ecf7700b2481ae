import { describe, expect, it } from "vitest";
import {
  invoiceHeadline,
  latePaymentEvents,
  timelineEventText,
} from "@/components/dashboard/invoice-timeline";
import { formatTolerancePercent, toleranceBasisPoints } from "@/lib/merchants/tolerance-percent";
import { underpaymentToleranceRequest } from "@/lib/schemas/merchant-settings";

describe("the invoice page's words", () => {
  it("heads a late-paid expired invoice as paid late, not expired unpaid", () => {
    expect(
      invoiceHeadline({ status: "failed", reason: "expired", hasLatePayment: false, isResolved: false }),
    ).toBe("Expired unpaid");
    expect(
      invoiceHeadline({ status: "failed", reason: "expired", hasLatePayment: true, isResolved: false }),
    ).toBe("Paid late (after it expired)");
    expect(
      invoiceHeadline({
        status: "cancelled",
        reason: "cancelled_by_merchant",
        hasLatePayment: true,
        isResolved: true,
      }),
    ).toBe("Paid after it was cancelled · resolved without a refund");
  });

  it("names every event kind in words, and an unknown one readably", () => {
    expect(timelineEventText("pending", "currency_fixed")).toBe("Currency fixed: awaiting payment");
    expect(timelineEventText("pending", "currency_switched")).toBe("Customer switched to another currency");
    expect(timelineEventText("processing", "payment_seen")).toBe("Payment seen on the network, confirming");
    expect(timelineEventText("confirmed", "paid")).toBe("Payment confirmed: paid");
    expect(timelineEventText("confirmed", "refund_issued")).toBe("Refund offered to the customer");
    expect(timelineEventText("failed", "refund_claimed")).toBe(
      "Refund claimed by the customer: the payout is on its way",
    );
    expect(timelineEventText("confirmed", "refund_expired")).toBe("Refund offer expired unclaimed");
    expect(timelineEventText("confirmed", "some_new_step")).toBe("Paid (some new step)");
    expect(timelineEventText("settled", null)).toBe("settled");
  });
});

describe("a late payment on the timeline", () => {
  const seenAt = new Date("2026-11-29T10:00:00Z");
  const creditedAt = new Date("2026-11-29T10:12:30Z");

  it("is told when seen and when credited, with its amount in its coin", () => {
    expect(
      latePaymentEvents({
        id: 7,
        amount: 1_500_000n,
        currency: "LTC",
        status: "credited",
        seenAt,
        creditedAt,
      }),
    ).toEqual([
      {
        key: "late-7",
        at: "2026-11-29T10:00:00.000Z",
        text: "Payment of 0.015 LTC seen after the invoice closed, confirmed",
      },
      {
        key: "late-7-credited",
        at: "2026-11-29T10:12:30.000Z",
        text: "Late payment of 0.015 LTC credited to your balance: it is owed back to the customer",
      },
    ]);
  });

  it("says what became of one that was never credited", () => {
    const texts = (status: "seen" | "unwound" | "held" | "rejected") =>
      latePaymentEvents({
        id: 1,
        amount: 2n * 10n ** 8n,
        currency: "ETH",
        status,
        seenAt,
        creditedAt: null,
      }).map((event) => event.text);
    expect(texts("seen")).toEqual(["Payment of 2 ETH seen after the invoice closed, confirming"]);
    expect(texts("held")).toEqual([
      "Payment of 2 ETH seen after the invoice closed, held for compliance review",
    ]);
    expect(texts("unwound")).toEqual([
      "Payment of 2 ETH seen after the invoice closed, then dropped by the network: nothing was credited",
    ]);
    expect(texts("rejected")).toEqual([
      "Payment of 2 ETH seen after the invoice closed, rejected in compliance review: nothing was credited",
    ]);
  });
});

describe("the underpayment tolerance as typed", () => {
  it("takes 0 to 10 percent with two decimals at most, as whole basis points", () => {
    for (const [typed, bp] of [
      ["0", 0],
      ["0.5", 50],
      ["1.25", 125],
      ["10", 1000],
      ["10.00", 1000],
    ] as const) {
      expect(underpaymentToleranceRequest.safeParse({ tolerance_percent: typed }).success).toBe(true);
      expect(toleranceBasisPoints(typed)).toBe(bp);
    }
    for (const typed of ["10.01", "11", "1.255", "-1", "1,5", "", ".5"])
      expect(underpaymentToleranceRequest.safeParse({ tolerance_percent: typed }).success).toBe(false);
    expect(formatTolerancePercent(50)).toBe("0.5");
    expect(formatTolerancePercent(1000)).toBe("10");
  });
});
