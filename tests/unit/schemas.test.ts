import { describe, expect, it } from "vitest";
import { z } from "zod";
import { amount } from "@/lib/schemas/amount";
import { endUserReference, receiver, sender } from "@/lib/schemas/common";
import { toFieldErrors } from "@/lib/schemas/messages";

const request = z.object({ end_user_reference: endUserReference, amount }).and(sender).and(receiver);

const natural = { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" };
const legal = { legal_name: "Acme GmbH", country_of_registration: "DEU" };
const valid = {
  end_user_reference: "cust-1",
  amount: "10.5",
  sender_type: "natural",
  sender_data: natural,
  receiver_type: "self",
};

function errorsOf(input: unknown): Record<string, string> {
  const result = request.safeParse(input);
  return result.success ? {} : toFieldErrors(result.error);
}

describe("common request rules (spec 2.1)", () => {
  it("accepts each valid sender and receiver combination", () => {
    expect(errorsOf(valid)).toEqual({});
    expect(errorsOf({ ...valid, sender_type: "legal", sender_data: legal })).toEqual({});
    expect(errorsOf({ ...valid, receiver_type: "natural", receiver_data: natural })).toEqual({});
    expect(errorsOf({ ...valid, receiver_type: "legal", receiver_data: legal })).toEqual({});
    expect(errorsOf({ ...valid, sender_data: { ...natural, email: "ada@example.com" } })).toEqual({});
  });

  it("requires the natural fields and refuses legal ones, by name", () => {
    expect(errorsOf({ ...valid, sender_data: { first_name: "Ada" } })).toEqual({
      "sender_data.last_name": "The last name field is required.",
      "sender_data.date_of_birth": "The date of birth field is required.",
    });
    expect(errorsOf({ ...valid, sender_data: { ...natural, legal_name: "Acme" } })).toEqual({
      "sender_data.legal_name": "The legal name field is prohibited when sender type is natural.",
    });
  });

  it("requires the legal fields and refuses natural ones", () => {
    expect(
      errorsOf({ ...valid, sender_type: "legal", sender_data: { ...legal, first_name: "Ada" } }),
    ).toEqual({
      "sender_data.first_name": "The first name field is prohibited when sender type is legal.",
    });
    expect(errorsOf({ ...valid, sender_type: "legal", sender_data: {} })).toMatchObject({
      "sender_data.legal_name": "The legal name field is required.",
      "sender_data.country_of_registration": "The country of registration field is required.",
    });
  });

  it("checks dates of birth as real calendar dates in the past", () => {
    const dob = (date_of_birth: string) => errorsOf({ ...valid, sender_data: { ...natural, date_of_birth } });
    expect(dob("2001-02-29")["sender_data.date_of_birth"]).toMatch(/real date/);
    expect(dob("1990-13-01")["sender_data.date_of_birth"]).toMatch(/real date/);
    expect(dob("3000-01-01")["sender_data.date_of_birth"]).toMatch(/not in the future/);
    expect(dob("10/12/1990")["sender_data.date_of_birth"]).toMatch(/YYYY-MM-DD/);
    expect(dob("2000-02-29")).toEqual({});
  });

  it("checks countries against the ISO 3166-1 alpha-3 list", () => {
    const country = (code: string) =>
      errorsOf({ ...valid, sender_type: "legal", sender_data: { ...legal, country_of_registration: code } });
    expect(country("USA")).toEqual({});
    expect(country("CHE")).toEqual({});
    expect(country("XYZ")["sender_data.country_of_registration"]).toMatch(/alpha-3/);
    expect(country("deu")["sender_data.country_of_registration"]).toMatch(/alpha-3/);
    expect(country("DE")["sender_data.country_of_registration"]).toMatch(/alpha-3/);
  });

  it("requires receiver_data unless the receiver is self, and forbids it then", () => {
    expect(errorsOf({ ...valid, receiver_type: "natural" })).toEqual({
      receiver_data: "The receiver data field is required.",
    });
    expect(errorsOf({ ...valid, receiver_data: natural })).toEqual({
      receiver_data: "The receiver data field is prohibited when receiver type is self.",
    });
    expect(errorsOf({ ...valid, receiver_type: "robot" })).toEqual({
      receiver_type: "The selected receiver type is invalid.",
    });
    const { receiver_type: _omitted, ...withoutReceiverType } = valid;
    expect(errorsOf(withoutReceiverType)).toEqual({ receiver_type: "The receiver type field is required." });
  });

  it("refuses personal data in end_user_reference", () => {
    expect(errorsOf({ ...valid, end_user_reference: "ada@example.com" }).end_user_reference).toMatch(
      /e-mail/,
    );
    expect(errorsOf({ ...valid, end_user_reference: "Ada Lovelace" }).end_user_reference).toMatch(
      /without spaces/,
    );
    expect(errorsOf({ ...valid, end_user_reference: "" }).end_user_reference).toBe(
      "The end user reference field is required.",
    );
    expect(errorsOf({ ...valid, end_user_reference: "user:2048" })).toEqual({});
  });

  it("parses amounts to minor units and explains bad ones", () => {
    const parsed = request.parse(valid) as { amount: bigint };
    expect(parsed.amount).toBe(1_050_000_000n);
    expect(errorsOf({ ...valid, amount: -1 }).amount).toBe("The amount must be greater than zero.");
    expect(errorsOf({ ...valid, amount: "1e3" }).amount).toMatch(/exponent/);
    expect(errorsOf({ ...valid, amount: "0.123456789" }).amount).toMatch(/decimal places/);
    expect(errorsOf({ ...valid, amount: true }).amount).toBeDefined();
  });
});
