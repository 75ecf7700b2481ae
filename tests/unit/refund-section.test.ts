import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RefundSection } from "@/app/(dashboard)/dashboard/invoices/[id]/refund-section";
import type { Refund } from "@/lib/withdrawals/list-refunds";

/** The section as a screen reader reads it: its text, tags dropped, and its links. */
function render(props: Parameters<typeof RefundSection>[0]) {
  const html = renderToStaticMarkup(createElement(RefundSection, props));
  const text = html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .replace(/ ([.,:])/g, "$1")
    .trim();
  const links = [...html.matchAll(/<a href="([^"]+)"/g)].map((match) => match[1]!.replaceAll("&amp;", "&"));
  const labelledBy = html.match(/^<section aria-labelledby="([^"]+)"/)?.[1];
  return { text, links, labelledBy, headingId: html.match(/<h2 id="([^"]+)"/)?.[1] };
}

const owed = (amount: bigint, left: bigint) => ({
  owed: amount,
  left,
  why: "The invoice failed short: everything the customer paid goes back to them.",
  href: "/dashboard/payouts/new?refund_of=7",
});
const refund = { id: 41, amount: 50_000n, currency: "BTC", status: "pending" } as unknown as Refund;

describe("the invoice page's refund sections", () => {
  it("the invoice's own: what is owed, the refunds standing, and the payout that sends the rest", () => {
    expect(
      render({ refund: owed(150_000n, 100_000n), refunds: [refund], currency: "BTC", className: "" }),
    ).toEqual({
      text:
        "Refund owed The invoice failed short: everything the customer paid goes back to them. Owed: 0.0015 BTC, " +
        "of which 0.001 BTC is still to send. Payout 41: 0.0005 BTC, waiting for approval Refund 0.001 BTC",
      links: ["/dashboard/transactions/41", "/dashboard/payouts/new?refund_of=7"],
      labelledBy: "refund",
      headingId: "refund",
    });
    expect(
      render({ refund: owed(150_000n, 150_000n), refunds: [], currency: "BTC", className: "" }).text,
    ).toBe(
      "Refund owed The invoice failed short: everything the customer paid goes back to them. Owed: 0.0015 BTC. " +
        "Send it as a payout to the address the customer gives you. Refund 0.0015 BTC",
    );
    expect(
      render({ refund: owed(150_000n, 0n), refunds: [refund], currency: "BTC", className: "" }).text,
    ).toBe(
      "Refunds The invoice failed short: everything the customer paid goes back to them. Owed: 0.0015 BTC. " +
        "The refunds below cover it. Payout 41: 0.0005 BTC, waiting for approval",
    );
  });

  it('beside "Issue refund", the prefilled payout says it sends to an address the merchant has', () => {
    expect(
      render({
        refund: owed(150_000n, 150_000n),
        refunds: [],
        currency: "BTC",
        issue: createElement("form", null, "Issue refund"),
        className: "",
      }),
    ).toMatchObject({
      text:
        "Refund owed The invoice failed short: everything the customer paid goes back to them. Owed: 0.0015 BTC. " +
        "Issue a refund: the customer is e-mailed a link to claim it with their own address. Issue refund " +
        "Send 0.0015 BTC to an address you have",
      links: ["/dashboard/payouts/new?refund_of=7"],
    });
  });

  it("a coin paid before the customer switched: its own heading and reason, no refund list", () => {
    const section = (left: bigint) =>
      render({
        refund: owed(2_000_000n, left),
        refunds: [],
        currency: "LTC",
        isOtherCoin: true,
        className: "",
      });
    expect(section(500_000n)).toEqual({
      text:
        "Refund owed in LTC Paid in LTC to the address shown before the customer switched coins. Owed: 0.02 LTC, " +
        "of which 0.005 LTC is still to send. Refund 0.005 LTC",
      links: ["/dashboard/payouts/new?refund_of=7"],
      labelledBy: "refund-LTC",
      headingId: "refund-LTC",
    });
    expect(section(2_000_000n).text).toBe(
      "Refund owed in LTC Paid in LTC to the address shown before the customer switched coins. Owed: 0.02 LTC. Refund 0.02 LTC",
    );
    expect(section(0n)).toMatchObject({
      text: "Refunded in LTC Paid in LTC to the address shown before the customer switched coins. Owed: 0.02 LTC.",
      links: [],
    });
  });
});
