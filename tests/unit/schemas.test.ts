import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseJsonObject, validate } from "@/lib/api/read-body";
import { KassaError } from "@/lib/errors";
import { JsonExactNumber } from "@/lib/json";
import { amount } from "@/lib/schemas/amount";
import { fixCurrencyRequest } from "@/lib/schemas/checkout";
import { endUserReference, receiver, sender } from "@/lib/schemas/common";
import {
  apiKeyAllowlistForm,
  apiKeyAllowlistRequest,
  quoteRequest,
  sandboxCreditRequest,
  sandboxMineRequest,
  sandboxPayRequest,
  totpEnableRequest,
} from "@/lib/schemas/dashboard";
import { exchangeCalculateRequest } from "@/lib/schemas/exchange";
import { createInvoiceRequest } from "@/lib/schemas/invoices";
import { toFieldErrors } from "@/lib/schemas/messages";
import { sandboxBlocksRequest, sandboxPaymentRequest } from "@/lib/schemas/sandbox";
import { instantWithdrawalRequest, withdrawalRequest } from "@/lib/schemas/withdrawals";

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
    expect((request.parse({ ...valid, amount: "1e3" }) as { amount: bigint }).amount).toBe(100_000_000_000n);
    expect((request.parse({ ...valid, amount: "1e-05" }) as { amount: bigint }).amount).toBe(1_000n);
    expect(errorsOf({ ...valid, amount: "0.123456789" }).amount).toMatch(/decimal places/);
    expect(errorsOf({ ...valid, amount: true }).amount).toBeDefined();
  });
});

function errorsIn(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  return result.success ? {} : toFieldErrors(result.error);
}

/** The errors of `fields` only: the API schema also checks fields the dashboard twin does not have. */
function only(errors: Record<string, string>, fields: string[]) {
  return Object.fromEntries(Object.entries(errors).filter(([field]) => fields.includes(field)));
}

/** What the wrapper (lib/api/with-session.ts) does with a body: parse the bytes, then the endpoint's schema. */
function throughWrapper(schema: z.ZodType, body: string) {
  try {
    return { data: validate({ request: schema }, parseJsonObject(Buffer.from(body))) };
  } catch (error) {
    if (!(error instanceof KassaError)) throw error;
    return { status: error.status, code: error.code, fields: error.fields };
  }
}

const payout = {
  address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
  foreign_id: "payout-1",
  end_user_reference: "payee-1",
  sender_type: "legal",
  sender_data: { legal_name: "Acme GmbH", country_of_registration: "DEU" },
  receiver_type: "self",
};

const validInvoice = {
  end_user_reference: "c",
  timer: false,
  title: "T",
  foreign_id: "f",
  currency: "EUR",
  amount: "10",
  url_success: "https://shop.example/ok",
  url_failed: "https://shop.example/failed",
  email_user: "buyer@example.com",
  sender_type: "natural",
  sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
};

describe("dashboard schemas, derived from the API's", () => {
  it("answers a quote without amounts with a 400 field error (it was a 500)", () => {
    expect(throughWrapper(quoteRequest, '{"currency":"BTC","convert_to":"ETH"}')).toEqual({
      status: 400,
      code: "validation_failed",
      fields: { amount: "The amount field is required when amount_to is not present." },
    });
    expect(throughWrapper(quoteRequest, '{"currency":"BTC","convert_to":"ETH","amount":"0.5"}')).toEqual({
      data: { currency: "BTC", convert_to: "ETH", amount: 50_000_000n },
    });
  });

  it("prices a quote exactly as POST /api/v2/withdrawal/crypto validates a payout", () => {
    const pricing = ["currency", "convert_to", "amount", "amount_to"];
    const cases: Record<string, unknown>[] = [
      { currency: "BTC", amount: "0.5" },
      { currency: "BTC", convert_to: "ETH", amount: "0.5" },
      { currency: "EUR", convert_to: "BTC", amount: "100.25" },
      { currency: "EUR", convert_to: "BTC", amount_to: "0.001" },
      { currency: "BTC", convert_to: "ETH" },
      { currency: "BTC" },
      { currency: "BTC", amount: "1", amount_to: "1", convert_to: "ETH" },
      { currency: "BTC", amount_to: "1" },
      { currency: "EUR", convert_to: "BTC", amount: "100.255" },
      { currency: "EUR", convert_to: "BTC", amount: "100.123456789" },
      { currency: "EUR", convert_to: "USDTE", amount_to: "1.1234567" },
      { currency: "EUR", convert_to: "BTC", amount: "1e-2" },
      { currency: "EUR", convert_to: "BTC", amount: 1e-3 },
      { currency: "BTC", amount: new JsonExactNumber("12345678.123456789") },
      { currency: "BTC", amount: new JsonExactNumber("1.000000000000000000001") },
      { currency: "BTC", amount: "-1" },
      { currency: "BTC", amount: 0 },
      { currency: "XXX", amount: "1" },
      { currency: "BTC", convert_to: "EUR", amount: "1" },
      { currency: "btc", convert_to: "eth", amount: 1 },
      { amount: "1" },
    ];
    for (const input of cases) {
      const quote = errorsIn(quoteRequest, input);
      const api = only(errorsIn(withdrawalRequest, { ...payout, ...input }), pricing);
      expect(quote, JSON.stringify(input)).toEqual(api);
    }
    // The table covers acceptance and refusal alike.
    expect(cases.filter((input) => Object.keys(errorsIn(quoteRequest, input)).length === 0).length).toBe(8);
  });

  it("checks every amount against its own currency's precision, with one message", () => {
    expect(errorsIn(quoteRequest, { currency: "EUR", convert_to: "BTC", amount: "1.000000001" })).toEqual({
      amount: "The amount has more decimal places than the currency allows.",
    });
    expect(
      errorsIn(withdrawalRequest, {
        ...payout,
        currency: "EUR",
        convert_to: "USDTE",
        amount_to: "1.0000001",
      }),
    ).toEqual({
      amount_to: "The amount to has more decimal places than USDTE allows (6).",
    });
    expect(
      errorsIn(exchangeCalculateRequest, {
        sender_currency: "USDTE",
        receiver_currency: "BTC",
        sender_amount: "0.0000001",
      }),
    ).toEqual({ sender_amount: "The sender amount has more decimal places than USDTE allows (6)." });
    expect(
      errorsIn(instantWithdrawalRequest, { ...payout, sender_currency: "USDTE", sender_amount: "1.1234567" }),
    ).toEqual({ sender_amount: "The sender amount has more decimal places than USDTE allows (6)." });
    expect(errorsIn(sandboxCreditRequest, { currency: "XRP", amount: "1.0000005" })).toEqual({
      amount: "The amount has more decimal places than XRP allows (6).",
    });
    // Fiat takes 8 fraction digits, the precision the public API's sandbox reports for fiat.
    expect(errorsIn(sandboxCreditRequest, { currency: "EUR", amount: "1.00000005" })).toEqual({});
    expect(errorsIn(sandboxCreditRequest, { currency: "EUR", amount: "1.5e1" })).toEqual({});
  });

  it("sandbox payments and blocks accept and refuse what the API's sandbox endpoints do", () => {
    const payments: Record<string, unknown>[] = [
      { address: "x", currency: "BTC", amount: "0.1" },
      { address: "x", currency: "EUR", amount: "0.1" },
      { address: "x", currency: "USDTE", amount: "0.0000001" },
      { address: "", currency: "BTC", amount: "0.1" },
      { address: "x", currency: "BTC" },
    ];
    for (const input of payments) {
      expect(errorsIn(sandboxPayRequest, input)).toEqual(errorsIn(sandboxPaymentRequest, input));
    }
    for (const count of [1, 100, 0, 101, 1.5, -1, null, true, new JsonExactNumber("1e400")]) {
      const input = { currency: "BTC", count };
      expect(errorsIn(sandboxMineRequest, input), String(count)).toEqual(
        errorsIn(sandboxBlocksRequest, input),
      );
    }
    // The sandbox panel types the count: text is read as the number it spells, within the same limits.
    expect(sandboxMineRequest.parse({ currency: "BTC", count: "3" })).toEqual({ currency: "BTC", count: 3 });
    expect(errorsIn(sandboxMineRequest, { currency: "BTC", count: "101" }).count).toBeDefined();
    expect(errorsIn(sandboxMineRequest, { currency: "BTC", count: "" }).count).toBeDefined();
  });

  it("refuses a TOTP secret that is not one /totp/setup hands out (it was a 500)", () => {
    expect(
      errorsIn(totpEnableRequest, {
        secret: "ERPGOPZUTGZXKGKIH7JNQSUGMPIF47NL",
        code: "123456",
        password: "the password",
      }),
    ).toEqual({});
    for (const secret of ["JBSWY3DPEHPK3PXP", "!".repeat(32), "erpgopzutgzxkgkih7jnqsugmpif47nl", 5]) {
      expect(errorsIn(totpEnableRequest, { secret, code: "123456" }).secret, String(secret)).toBeDefined();
    }
  });

  it("turning two-factor sign-in on asks for the password (a stolen session must not enrol its own app)", () => {
    const secret = "ERPGOPZUTGZXKGKIH7JNQSUGMPIF47NL";
    expect(errorsIn(totpEnableRequest, { secret, code: "123456" }).password).toBeDefined();
    expect(errorsIn(totpEnableRequest, { secret, code: "123456", password: "" }).password).toBe(
      "Type your password to confirm.",
    );
  });

  it("the allowlist form checks the box's ranges as the request checks its list, and says so on the box", () => {
    const ranges = (n: number) => Array.from({ length: n }, (_, i) => `10.0.${i}.0/24`);
    expect(errorsIn(apiKeyAllowlistForm, { allowed_ips: "203.0.113.0/24\n2001:db8::/32, 10.0.0.1" })).toEqual(
      {},
    );
    expect(errorsIn(apiKeyAllowlistForm, { allowed_ips: "" })).toEqual({});
    expect(errorsIn(apiKeyAllowlistForm, {})).toEqual({});
    expect(errorsIn(apiKeyAllowlistForm, { allowed_ips: ranges(200).join("\n") })).toEqual({});
    const tooMany = { allowed_ips: "The allowed ips may not be greater than 200." };
    expect(errorsIn(apiKeyAllowlistRequest, { allowed_ips: ranges(201) })).toEqual(tooMany);
    expect(errorsIn(apiKeyAllowlistForm, { allowed_ips: ranges(201).join(" ") })).toEqual(tooMany);
    // The request names the entry (allowed_ips.1); the form has one box to say it on.
    const long = "1".repeat(101);
    expect(Object.keys(errorsIn(apiKeyAllowlistRequest, { allowed_ips: ["10.0.0.1", long] }))).toEqual([
      "allowed_ips.1",
    ]);
    expect(errorsIn(apiKeyAllowlistForm, { allowed_ips: `10.0.0.1, ${long}` })).toEqual({
      allowed_ips: "The allowed ips may not be greater than 100 characters.",
    });
  });

  it("the checkout's currency choice is an invoice's sender_currency", () => {
    const invoice = validInvoice;
    for (const currency of ["BTC", "eth", "EUR", "XXX", "", 5]) {
      const chosen = errorsIn(fixCurrencyRequest, { currency });
      const api = only(errorsIn(createInvoiceRequest, { ...invoice, sender_currency: currency }), [
        "sender_currency",
      ]);
      expect(chosen.currency, String(currency)).toBe(
        api.sender_currency?.replace("sender currency", "currency"),
      );
    }
  });
});

describe("numbers by value in request fields", () => {
  it("reads 5.0 as the integer 5 and refuses exact numbers outside amounts", async () => {
    const { transactionInfoRequest } = await import("@/lib/schemas/transactions");
    expect(throughWrapper(transactionInfoRequest, '{"id": 5.0}')).toEqual({ data: { id: 5 } });
    expect(throughWrapper(transactionInfoRequest, '{"id": 9007199254740993}')).toMatchObject({
      status: 400,
      fields: { id: "The id has more significant digits than this field accepts." },
    });
    expect(throughWrapper(transactionInfoRequest, '{"id": 1e400}')).toMatchObject({
      status: 400,
      fields: { id: "The id is too large." },
    });
    expect(throughWrapper(transactionInfoRequest, '{"foreign_id": 1.50}')).toEqual({
      data: { foreign_id: 1.5 },
    });
    // A 20-digit id keeps every digit, as text, wherever it sits in the value.
    expect(throughWrapper(transactionInfoRequest, '{"foreign_id": 12345678901234567890}')).toEqual({
      data: { foreign_id: "12345678901234567890" },
    });
    expect(
      throughWrapper(transactionInfoRequest, '{"foreign_id": {"order": [12345678901234567890, 1.50]}}'),
    ).toEqual({ data: { foreign_id: { order: ["12345678901234567890", 1.5] } } });
    const invoice = (foreignId: string) =>
      throughWrapper(
        createInvoiceRequest,
        JSON.stringify(validInvoice).replace('"foreign_id":"f"', `"foreign_id":${foreignId}`),
      );
    expect(invoice("12345678901234567890")).toMatchObject({ data: { foreign_id: "12345678901234567890" } });
    expect(invoice("1e400")).toMatchObject({
      status: 400,
      fields: { foreign_id: "The foreign id must be a string or an integer." },
    });
  });

  it("refuses a lone surrogate as a malformed body, and keeps a paired one", () => {
    expect(throughWrapper(quoteRequest, '{"currency":"BTC\\ud800","amount":1}')).toEqual({
      status: 400,
      code: "bad_content_format",
      fields: undefined,
    });
    expect(throughWrapper(fixCurrencyRequest, '{"currency":"\\ud83d\\ude00"}')).toMatchObject({
      status: 400,
      code: "validation_failed",
    });
  });
});

describe("what real clients send", () => {
  it("reads a body of null as {}, and refuses other non-objects", () => {
    expect(parseJsonObject(Buffer.from("null"))).toEqual({});
    expect(parseJsonObject(Buffer.from(" null\n"))).toEqual({});
    for (const body of ["[]", "5", '"x"', "true", "nul"]) {
      expect(() => parseJsonObject(Buffer.from(body)), body).toThrow("Bad content format");
    }
  });

  it("treats optional fields sent as null as absent, on every schema, nested ones included", async () => {
    const { transactionInfoRequest } = await import("@/lib/schemas/transactions");
    const { takeAddressRequest } = await import("@/lib/schemas/addresses");
    const { currenciesListRequest } = await import("@/lib/schemas/platform");
    // A Go struct without omitempty sends every field.
    expect(throughWrapper(transactionInfoRequest, '{"id": 7, "foreign_id": null, "txid": null}')).toEqual({
      data: { id: 7 },
    });
    expect(throughWrapper(currenciesListRequest, '{"visible": null}')).toEqual({ data: {} });
    const invoice = JSON.stringify({ ...validInvoice, sender_currency: null, type: null, description: null });
    const parsed = throughWrapper(createInvoiceRequest, invoice);
    expect(parsed).toMatchObject({ data: { foreign_id: "f", amount: 10_00000000n } });
    expect(parsed.data).not.toHaveProperty("sender_currency");
    expect(parsed.data).not.toHaveProperty("type");
    const address = throughWrapper(
      takeAddressRequest,
      '{"foreign_id": "u-1", "currency": "BTC", "convert_to": null, "end_user_reference": null}',
    );
    expect(address).toEqual({ data: { foreign_id: "u-1", currency: "BTC" } });
    const customer = throughWrapper(
      takeAddressRequest,
      JSON.stringify({
        foreign_id: "u-2",
        currency: "BTC",
        end_user_reference: "cust-2",
        sender_type: "natural",
        sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10", email: null },
      }),
    );
    expect(customer).toMatchObject({ data: { foreign_id: "u-2", sender_type: "natural" } });
    const withdrawal = throughWrapper(
      withdrawalRequest,
      JSON.stringify({
        ...payout,
        currency: "BTC",
        amount: "0.01",
        amount_to: null,
        convert_to: null,
        tag: null,
        sender_data: { ...payout.sender_data, email: null },
      }),
    );
    expect(withdrawal).toMatchObject({ data: { currency: "BTC", amount: 1_000_000n } });
    expect(withdrawal.data).not.toHaveProperty("tag");
    expect((withdrawal.data as { sender_data: object }).sender_data).not.toHaveProperty("email");
  });

  it("keeps a required field sent as null a field error, and a null inside any-JSON as sent", async () => {
    expect(
      throughWrapper(createInvoiceRequest, JSON.stringify({ ...validInvoice, amount: null, title: null })),
    ).toEqual({
      status: 400,
      code: "validation_failed",
      fields: {
        amount: "The amount field must not be null.",
        title: "The title field must not be null.",
      },
    });
    expect(
      throughWrapper(
        withdrawalRequest,
        JSON.stringify({ ...payout, currency: "BTC", amount: "0.01", foreign_id: null }),
      ),
    ).toMatchObject({ status: 400, fields: { foreign_id: "The foreign id field is required." } });
    // A withdrawal's foreign_id is any JSON, echoed as given: its nulls are data.
    expect(
      throughWrapper(
        withdrawalRequest,
        JSON.stringify({ ...payout, currency: "BTC", amount: "0.01", foreign_id: { order: 5, note: null } }),
      ),
    ).toMatchObject({ data: { foreign_id: { order: 5, note: null } } });
    expect(
      throughWrapper(sandboxPaymentRequest, '{"address": "x", "currency": "BTC", "amount": 1, "tag": null}'),
    ).toEqual({ data: { address: "x", currency: "BTC", amount: 1_00000000n } });
  });

  it("reads amounts in exponent form by their exact value, as JSON numbers and as strings", () => {
    // Python's json.dumps(0.00001) writes 1e-05.
    const body = (amount: string) => `{"currency": "BTC", "convert_to": "ETH", "amount": ${amount}}`;
    expect(throughWrapper(quoteRequest, body("1e-05"))).toMatchObject({ data: { amount: 1000n } });
    expect(throughWrapper(quoteRequest, body('"1e-05"'))).toMatchObject({ data: { amount: 1000n } });
    expect(throughWrapper(quoteRequest, body("1.5E-7"))).toMatchObject({ data: { amount: 15n } });
    expect(throughWrapper(quoteRequest, body('"2.5e+1"'))).toMatchObject({ data: { amount: 25_00000000n } });
    expect(throughWrapper(quoteRequest, body("1e-8"))).toMatchObject({ data: { amount: 1n } });
    // More fraction digits than the currency allows, by exact value, is refused, never rounded.
    for (const amount of ["1e-9", '"1e-9"', "1.23456789e-1", '"0.1e-8"']) {
      expect(throughWrapper(quoteRequest, body(amount)), amount).toMatchObject({
        status: 400,
        fields: { amount: "The amount has more decimal places than the currency allows." },
      });
    }
    expect(
      throughWrapper(quoteRequest, '{"currency": "USDTE", "convert_to": "BTC", "amount": 1e-7}'),
    ).toMatchObject({
      status: 400,
      fields: { amount: "The amount has more decimal places than USDTE allows (6)." },
    });
    // Fiat: 8 fraction digits, the precision currencies/list reports for it.
    expect(
      throughWrapper(quoteRequest, '{"currency": "EUR", "convert_to": "BTC", "amount": 1.2345678e1}'),
    ).toMatchObject({ data: { amount: 12_34567800n } });
  });
});
