import { describe, expect, it } from "vitest";
import { decimalFromInput } from "@/components/forms/decimal-input";
import { INVOICE_LABELS, PAYOUT_LABELS, relabel } from "@/components/forms/field-labels";

describe("form messages worded with the labels on screen", () => {
  it("puts the label in the schema's :attribute slot and for API names with underscores", () => {
    expect(relabel("The foreign id field is required.", INVOICE_LABELS)).toBe(
      "The “Your order id” field is required.",
    );
    expect(relabel("The amount to field may only be used together with convert_to.", PAYOUT_LABELS)).toBe(
      "The “Amount to send” field may only be used together with “Convert to”.",
    );
    expect(relabel("The amount field is required when amount_to is not present.", PAYOUT_LABELS)).toBe(
      "The “Amount” field is required when “Amount to send” is not present.",
    );
    expect(relabel("The selected currency is invalid.", INVOICE_LABELS)).toBe(
      "The selected “Currency you receive” is invalid.",
    );
  });

  it("leaves ordinary words alone", () => {
    const message = "A refund of invoice 4 is sent in BTC, the currency the customer paid with.";
    expect(relabel(message, PAYOUT_LABELS)).toBe(message);
    expect(relabel("The amount must be at least 0.0001 BTC.", PAYOUT_LABELS)).toBe(
      "The “Amount” must be at least 0.0001 BTC.",
    );
  });
});

describe("amounts typed with a comma", () => {
  it("reads one comma as the decimal mark, exactly, and drops digit-group spaces", () => {
    expect(decimalFromInput("12,50")).toBe("12.50");
    expect(decimalFromInput(" 1\u202f234,5 ")).toBe("1234.5");
    expect(decimalFromInput("12.50")).toBe("12.50");
    expect(decimalFromInput("1,234.50")).toBe("1,234.50");
    expect(decimalFromInput("1,2,3")).toBe("1,2,3");
  });
});
