import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { invoices } from "@/lib/db/schema";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { divide, formatAmount, parseDecimal } from "@/lib/money";
import { DEFAULT_USD_PRICES, setUsdPrice } from "@/lib/rates/rates";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, createFixedInvoice, pay } from "../support/invoices";

/**
 * Rate locks expire (DESIGN.md section 3, issue 15): the locked rate covers the invoiced amount
 * while the lock lives; an excess, a payment to a closed invoice and a payment after the lock
 * expired convert at the rate of the moment the payment was seen. Expected credits are computed
 * here from the prices and the spread, independently of the conversion code.
 */
const LOCKED_BTC = parseDecimal("65000");
const FALLEN_BTC = parseDecimal("48750"); // 25% lower
const EUR = parseDecimal("1.08");
const CENT = 1_000_000n;

/** EUR credited, net of the 0.5% deposit fee, for BTC paid at the given USD prices (one rounding). */
function expectedNet(parts: { btc: bigint; usdPrice: bigint }[]): bigint {
  const worth = parts.reduce((sum, p) => sum + p.btc * p.usdPrice, 0n);
  const gross = divide(worth * 995_000n, EUR * 1_000_000n * CENT, "down") * CENT;
  const fee = divide(gross * 5_000n, 1_000_000n * CENT, "up") * CENT;
  return gross - fee;
}

describe(`rate locks on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;

  const credited = async (id: number) => (await loadInvoiceById(database.db, id))!.invoice.creditedAmount;
  const fixed = async (overrides: Record<string, unknown> = {}) => {
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC", overrides);
    return { invoice, due: invoice.invoice.senderAmount! };
  };
  const fallPrice = () => setUsdPrice(database.db, "BTC", FALLEN_BTC);

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = (
      await createMerchant(database.db, database.box, {
        name: "Locks",
        email: "locks@example.com",
        password: "long password 1",
      })
    ).merchantId;
  });
  afterAll(() => database.drop());
  beforeEach(() => setUsdPrice(database.db, "BTC", parseDecimal(DEFAULT_USD_PRICES.BTC!)));

  it("credits a payment within the lock at the locked rate, even after the price moved", async () => {
    const { invoice, due } = await fixed();
    await fallPrice();
    await pay(database.db, invoice, due);
    await confirm(database.db, "BTC");
    expect(await credited(invoice.id)).toBe(expectedNet([{ btc: due, usdPrice: LOCKED_BTC }]));
    expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("confirmed");
  });

  it("credits an overpayment's excess at the rate of the moment it was seen", async () => {
    const { invoice, due } = await fixed();
    await fallPrice();
    const excess = parseDecimal("0.001");
    await pay(database.db, invoice, due + excess);
    await confirm(database.db, "BTC");
    expect(await credited(invoice.id)).toBe(
      expectedNet([
        { btc: due, usdPrice: LOCKED_BTC },
        { btc: excess, usdPrice: FALLEN_BTC },
      ]),
    );
    const info = await describeTransaction(database.db, invoice.id);
    const payments = info.additional_details!.payments as Record<string, unknown>[];
    expect(payments).toHaveLength(1);
    // Display: 65000 × 0.995 / 1.08 = 59884.259…; 48750 × 0.995 / 1.08 = 44913.194…
    expect(payments[0]).toMatchObject({
      locked_amount: formatAmount(due),
      amount: formatAmount(due + excess),
      locked_rate: "59884.25925925",
      rate: "44913.19444444",
    });
  });

  it("credits a payment after the lock expired at the rate of the moment", async () => {
    const { invoice, due } = await fixed();
    await database.db
      .update(invoices)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(invoices.transactionId, invoice.id));
    await fallPrice();
    await pay(database.db, invoice, due);
    await confirm(database.db, "BTC");
    expect(await credited(invoice.id)).toBe(expectedNet([{ btc: due, usdPrice: FALLEN_BTC }]));
  });

  it("credits 1 BTC paid to a closed invoice's old address at the new price (the issue's case)", async () => {
    const { invoice, due } = await fixed();
    await pay(database.db, invoice, due);
    await confirm(database.db, "BTC");
    const before = await credited(invoice.id);
    expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("confirmed");
    await fallPrice();
    await pay(database.db, invoice, parseDecimal("1"));
    await confirm(database.db, "BTC");
    const late = (await credited(invoice.id)) - before;
    // 1 × 48750 × 0.995 / 1.08 = 44913.19 EUR less the fee, not the stale lock's 59,884.25.
    expect(late).toBe(expectedNet([{ btc: parseDecimal("1"), usdPrice: FALLEN_BTC }]));
    expect(late < parseDecimal("45000")).toBe(true);
  });

  it("holds the lock of an invoice without a timer for the fix period only", async () => {
    const within = await fixed({ timer: false });
    await fallPrice();
    await pay(database.db, within.invoice, within.due);
    await confirm(database.db, "BTC");
    expect(await credited(within.invoice.id)).toBe(expectedNet([{ btc: within.due, usdPrice: LOCKED_BTC }]));

    await setUsdPrice(database.db, "BTC", LOCKED_BTC);
    const after = await fixed({ timer: false });
    // The fix period (KASSA_RATE_LOCK_SECONDS, by default the 900 s of a timer) has passed.
    await database.db
      .update(invoices)
      .set({ fixedAt: sql`now() - interval '901 seconds'` })
      .where(eq(invoices.transactionId, after.invoice.id));
    await fallPrice();
    await pay(database.db, after.invoice, after.due);
    await confirm(database.db, "BTC");
    expect(await credited(after.invoice.id)).toBe(expectedNet([{ btc: after.due, usdPrice: FALLEN_BTC }]));
  });
});
