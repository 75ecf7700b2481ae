import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KassaError } from "@/lib/errors";
import { listTransactions } from "@/lib/transactions/list-transactions";
import { parseFilter } from "@/lib/transactions/parse-filter";
import { toCsvCell } from "@/lib/transactions/to-csv-cell";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";

const filterOf = (query: string) => parseFilter(new URLSearchParams(query));

function refusedFields(query: string): Record<string, string> | undefined {
  try {
    filterOf(query);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(KassaError);
    return (error as KassaError).fields;
  }
}

describe("CSV cells", () => {
  it("neutralise every value a spreadsheet would evaluate, including a minus and a digit that start a formula", () => {
    for (const value of ["=1+1", "+1", "-2+3+cmd|' /C calc'!A0", "-1)*cmd", "@SUM(A1)", "\tx", "\rx", "\n=1"])
      expect(toCsvCell(value), JSON.stringify(value)).toBe(`"'${value.replace(/"/g, '""')}"`);
  });

  it("leave plain numbers, text and empty values as they are, and double quotes", () => {
    expect(toCsvCell("-12.50000000")).toBe('"-12.50000000"');
    expect(toCsvCell(42)).toBe('"42"');
    expect(toCsvCell("order 1")).toBe('"order 1"');
    expect(toCsvCell(null)).toBe('""');
    expect(toCsvCell('say "hi"')).toBe('"say ""hi"""');
  });
});

describe(`transaction filters on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Exporter");
    await createFixedInvoice(database.db, merchantId, "BTC");
  });
  afterAll(() => database.drop());

  it("refuse dates the database cannot hold, or the calendar does not have, as field errors before any query", () => {
    expect(refusedFields("from=0000-01-01")).toHaveProperty("from");
    expect(refusedFields("to=0000-12-31")).toHaveProperty("to");
    expect(refusedFields("from=1969-12-31")).toHaveProperty("from");
    expect(refusedFields("from=2024-02-30")).toHaveProperty("from");
    expect(refusedFields("from=yesterday")).toHaveProperty("from");
    expect(refusedFields("to=2024-1-5")).toHaveProperty("to");
  });

  it("accept the widest dates they allow, and the database answers them", async () => {
    const { filter } = filterOf("from=1970-01-01&to=9999-12-31");
    const page = await listTransactions(database.db, { merchantId, filter, limit: 10 });
    expect(page.rows).toHaveLength(1);
    const { filter: empty } = filterOf("from=9999-12-31");
    expect((await listTransactions(database.db, { merchantId, filter: empty, limit: 10 })).rows).toEqual([]);
  });
});
