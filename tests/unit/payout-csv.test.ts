import { describe, expect, it } from "vitest";
import {
  CSV_COLUMNS,
  PayoutCsvError,
  parsePayoutCsv,
  payoutCsvTemplate,
} from "@/lib/payout-batches/payout-csv";

const bytes = (text: string) => new TextEncoder().encode(text);
const HEADER =
  "reference,currency,amount,address,receiver_type,receiver_legal_name,receiver_country_of_registration";
const LINE = "aff-1,BTC,0.01,bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu,legal,Acme Ltd,GBR";

function refusal(input: Uint8Array): string {
  try {
    parsePayoutCsv(input);
  } catch (error) {
    expect(error).toBeInstanceOf(PayoutCsvError);
    return (error as Error).message;
  }
  throw new Error("the file was accepted");
}

describe("parsePayoutCsv", () => {
  it("reads each line as the API's payout, with its line in the file", () => {
    const { rows, errors } = parsePayoutCsv(
      bytes(`${HEADER}\r\n${LINE}\r\n\r\n"aff-2","btc","1e-3",x,natural,,\r\n`),
    );
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      {
        row: 2,
        payout: {
          foreign_id: "aff-1",
          currency: "BTC",
          amount: "0.01",
          amount_to: undefined,
          convert_to: undefined,
          address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
          tag: undefined,
          receiver_type: "legal",
          receiver_data: { legal_name: "Acme Ltd", country_of_registration: "GBR" },
          end_user_reference: undefined,
        },
      },
      // A blank line is skipped and counted: the next payout is on line 4.
      {
        row: 4,
        payout: expect.objectContaining({
          foreign_id: "aff-2",
          currency: "BTC",
          amount: "1e-3",
          receiver_data: undefined,
        }),
      },
    ]);
  });

  it("takes a byte-order mark, semicolons with comma decimals, and the columns in any order and case", () => {
    const text = `\uFEFFAddress;Reference;CURRENCY;amount;receiver_type\n0xabc;r-1;ETH;2;self\n0xabc;r-2;ETH;"1 000,50";self\n0xabc;r-3;ETH;1.000,5;self\n`;
    const { rows } = parsePayoutCsv(bytes(text));
    expect(rows.map((r) => (r.payout as { amount: string }).amount)).toEqual(["2", "1000.50", "1.000,5"]);
    // A comma-separated file's quoted "1,5" stays as written: the comma may group thousands there.
    const commas = parsePayoutCsv(
      bytes(`reference,currency,amount,address,receiver_type\nr,ETH,"1,5",0xabc,self\n`),
    );
    expect((commas.rows[0]!.payout as { amount: string }).amount).toBe("1,5");
    expect(rows[0]).toMatchObject({
      row: 2,
      payout: { address: "0xabc", foreign_id: "r-1", currency: "ETH", amount: "2" },
    });
  });

  it("refuses a file that is not UTF-8, with what to do", () => {
    const latin1 = Uint8Array.from([...bytes(`${HEADER}\n`), 0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72]);
    expect(refusal(latin1)).toBe(
      'The file is not UTF-8 text. In your spreadsheet, save it as "CSV UTF-8 (comma delimited)" and upload it again.',
    );
    const utf16 = Uint8Array.from([0xff, 0xfe, ...bytes("r\0e\0")]);
    expect(refusal(utf16)).toMatch(/^The file is not UTF-8 text/);
  });

  it("refuses a file over 1 MB before reading it, and more than 1,000 payouts", () => {
    expect(refusal(new Uint8Array(50 * 1024 * 1024))).toBe(
      "The file is 50.0 MB; a bulk payout file may be at most 1 MB (1,000 payouts). Split it into several files.",
    );
    const many = `reference,currency,amount,address,receiver_type\n${Array.from({ length: 100_000 }, (_, i) => `${i},B,1,a,self`).join("\n")}`;
    // 100,000 payouts are over 1 MB even with the shortest cells; 1,001 fit in it and are refused by count.
    const fits = `reference,currency,amount,address,receiver_type\n${"r,B,1,a,s\n".repeat(1001)}`;
    expect(refusal(bytes(fits))).toBe(
      "The file holds 1,001 payouts; a bulk payout takes at most 1,000. Split it into several files.",
    );
    expect(refusal(bytes(many))).toMatch(/^The file is 1\.\d MB; a bulk payout file may be at most 1 MB/);
  });

  it("refuses missing, unknown and doubled columns by name", () => {
    expect(refusal(bytes("reference,currency,amount\nr,BTC,1\n"))).toBe(
      'The file has no "address", "receiver_type" columns. Start from the template: it names every column.',
    );
    expect(refusal(bytes("reference,currency,adress,address,amount,receiver_type\n"))).toBe(
      `The first line must name the columns; "adress" is not one of them. The columns are: ${CSV_COLUMNS.join(", ")}.`,
    );
    expect(refusal(bytes("reference,currency,amount,amount,address,receiver_type\n"))).toBe(
      'The column "amount" is named twice in the first line.',
    );
    expect(refusal(bytes(`${HEADER}\n`))).toBe("The file names its columns but holds no payouts.");
    expect(refusal(bytes(""))).toBe("The file is empty.");
    expect(refusal(bytes(`${HEADER}\n"aff-1,BTC\n`))).toMatch(
      /^The file is not valid CSV \(line \d\): a cell opens a quote/,
    );
  });

  it("refuses a cell written as a formula, by line and column, and keeps negative numbers for the amount's own check", () => {
    const { rows, errors } = parsePayoutCsv(
      bytes(
        `${HEADER}\n${LINE}\n=HYPERLINK("x"),BTC,0.01,a,legal,@SUM(A1),GBR\naff-3,BTC,-0.5,a,legal,-Acme,GBR\n`,
      ),
    );
    expect(errors).toEqual([
      {
        row: 3,
        field: "reference",
        message: 'The cell starts with "=", as a spreadsheet formula does. Type the value itself.',
      },
      {
        row: 3,
        field: "receiver_legal_name",
        message: 'The cell starts with "@", as a spreadsheet formula does. Type the value itself.',
      },
      {
        row: 4,
        field: "receiver_legal_name",
        message: 'The cell starts with "-", as a spreadsheet formula does. Type the value itself.',
      },
    ]);
    expect(rows.find((r) => r.row === 4)?.payout).toMatchObject({ amount: "-0.5" });
  });

  it("offers a template naming every column, which reads back as an empty file", () => {
    expect(payoutCsvTemplate()).toBe(`${CSV_COLUMNS.join(",")}\r\n`);
    expect(refusal(bytes(payoutCsvTemplate()))).toBe("The file names its columns but holds no payouts.");
  });
});
