import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncCurrencies } from "@/lib/currencies/sync-currencies";
import { type DatabaseHandle, openDatabase } from "@/lib/db/client";
import { MIGRATIONS_FOLDER, runMigrations } from "@/lib/db/migrate";
import { deposits, invoices, withdrawals } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money";
import { storedRate } from "@/lib/rates/rate";

/**
 * Migration 0008 on a database that already holds rows with 8-digit rates: each becomes exactly
 * value / 10^8; existing payments get the rate locks the application would have given them
 * (the SQL is the same on both engines; this runs it on an embedded database).
 */
describe("the exact-rates migration on existing rows", () => {
  let handle: DatabaseHandle;
  let folder: string;

  beforeAll(async () => {
    // The migrations as they were before 0008.
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-migrations-"));
    fs.mkdirSync(path.join(folder, "meta"));
    const journal = JSON.parse(
      fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8"),
    );
    journal.entries = journal.entries.filter((e: { idx: number }) => e.idx < 8);
    fs.writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify(journal));
    for (const entry of journal.entries as { tag: string }[])
      fs.copyFileSync(
        path.join(MIGRATIONS_FOLDER, `${entry.tag}.sql`),
        path.join(folder, `${entry.tag}.sql`),
      );
    handle = await openDatabase({ kind: "pglite" });
    await migrate(handle.db as unknown as PgliteDatabase, { migrationsFolder: folder });
    await syncCurrencies(handle.db);
    await upgradeOldRows();
  });
  afterAll(async () => {
    await handle.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  const invoiceSql = (input: {
    id: number;
    status: string;
    rate: string;
    hasTimer: boolean;
    fixedAt: string;
    expiresAt: string;
  }) => [
    sql`
      insert into transactions (id, merchant_id, type, status, currency, amount)
      values (${input.id}, 1, 'invoice', ${input.status}, 'EUR', 100)`,
    sql`
      insert into invoices (transaction_id, merchant_id, token, title, type, has_timer, url_success, url_failed,
                            email_user, sender_type, sender_data, sender_currency, sender_amount, rate, spread_ppm,
                            fixed_at, expires_at)
      values (${input.id}, 1, ${`t${input.id}`}, 'Old', 'good_until_expired', ${input.hasTimer}, 'https://a.example',
              'https://b.example', 'a@example.com', 'natural', '{}', 'BTC', 0.002, ${input.rate}::numeric, 5000,
              ${sql.raw(input.fixedAt)}, ${sql.raw(input.expiresAt)})`,
    sql`
      insert into deposit_addresses (id, merchant_id, currency, network, address, derivation_path, kind, invoice_id)
      values (${input.id}, 1, 'BTC', 'bitcoin', ${`bc1q${input.id}`}, ${`m/${input.id}`}, 'invoice', ${input.id})`,
  ];
  let nextDeposit = 1;
  const depositSql = (input: { invoice: number; amount: string; status: "seen" | "credited" }) => {
    const id = nextDeposit++;
    return [
      sql`
      insert into chain_transactions (id, currency, txid, address, amount, direction)
      values (${id}, 'BTC', ${`tx${id}`}, ${`bc1q${input.invoice}`}, ${input.amount}::numeric, 'in')`,
      sql`
      insert into deposits (id, merchant_id, deposit_address_id, transaction_id, chain_transaction_id, currency,
                            amount, status)
      values (${id}, 1, ${input.invoice}, ${input.invoice}, ${id}, 'BTC', ${input.amount}::numeric, ${input.status})`,
    ];
  };

  const run = async (statements: ReturnType<typeof sql>[]) => {
    for (const statement of statements) await handle.db.execute(statement);
  };

  /** Rows as an installation before 0008 holds them, then the migrations from 0008 on. */
  async function upgradeOldRows() {
    await handle.db.execute(sql`
      insert into merchants (id, name, email) values (1, 'Old', 'old@example.com')`);
    await handle.db.execute(sql`
      insert into transactions (id, merchant_id, type, status, currency, amount) values
        (1, 1, 'invoice', 'pending', 'EUR', 100), (2, 1, 'withdrawal_exchange', 'processing', 'DOGE', 100000)`);
    await handle.db.execute(sql`
      insert into invoices (transaction_id, merchant_id, token, title, type, has_timer, url_success, url_failed,
                            email_user, sender_type, sender_data, sender_currency, sender_amount, rate, spread_ppm)
      values (1, 1, 't', 'Old', 'fill_or_kill', true, 'https://a.example', 'https://b.example', 'a@example.com',
              'natural', '{}', 'BTC', 0.00166989, 59884.25925925, 5000)`);
    await handle.db.execute(sql`
      insert into withdrawals (transaction_id, merchant_id, kind, foreign_id_raw, source_currency, target_currency,
                               principal, sent_amount, withdrawal_fee, network_fee, total_debit, rate, mid_rate,
                               spread_ppm, address, sender_type, sender_data, receiver_type)
      values (2, 1, 'withdrawal_exchange', '"p"', 'DOGE', 'BTC', 100000, 0.228, 0, 0, 100000, 0.00000228,
              0.00000230, 5000, 'bc1q', 'legal', '{}', 'self')`);

    // Payments of 0.002 BTC invoices at 50,000 EUR/BTC, in the states an upgrade can find them in.
    const live = { rate: "50000", fixedAt: "now()", expiresAt: "now() + interval '10 minutes'" };
    await run(invoiceSql({ id: 3, status: "processing", hasTimer: true, ...live }));
    for (const [amount, status] of [
      ["0.0005", "credited"],
      ["0.001", "seen"],
      ["0.001", "seen"], // 0.0005 of it still within the amount due
      ["0.001", "seen"], // all of it beyond
    ] as const)
      await run(depositSql({ invoice: 3, amount, status }));
    // No timer, fixed 1,000 s ago: past the 900 s lock.
    await run(
      invoiceSql({
        id: 4,
        status: "processing",
        hasTimer: false,
        rate: "50000",
        fixedAt: "now() - interval '1000 seconds'",
        expiresAt: "null",
      }),
    );
    await run(depositSql({ invoice: 4, amount: "0.001", status: "seen" }));
    // No timer, fixed 100 s ago: within the lock.
    await run(
      invoiceSql({
        id: 5,
        status: "processing",
        hasTimer: false,
        rate: "50000",
        fixedAt: "now() - interval '100 seconds'",
        expiresAt: "null",
      }),
    );
    await run(depositSql({ invoice: 5, amount: "0.001", status: "seen" }));
    // Closed: a payment to it is late and never locked.
    await run(invoiceSql({ id: 6, status: "confirmed", hasTimer: true, ...live }));
    await run(depositSql({ invoice: 6, amount: "0.001", status: "seen" }));
    // An old rate of 0 (no usable rate).
    await run(invoiceSql({ id: 7, status: "pending", hasTimer: true, ...live, rate: "0" }));
    await run(depositSql({ invoice: 7, amount: "0.001", status: "seen" }));

    await runMigrations(handle);
  }

  it("turns each stored 8-digit rate into the same exact ratio", async () => {
    const [invoice] = await handle.db.select().from(invoices).where(eq(invoices.transactionId, 1));
    expect(storedRate(invoice!.rateNumerator, invoice!.rateDenominator)).toEqual(
      storedRate(5_988_425_925_925n, 100_000_000n),
    );
    expect(invoice!.rateNumerator! * 100_000_000n).toBe(5_988_425_925_925n * invoice!.rateDenominator!);
    const [withdrawal] = await handle.db.select().from(withdrawals).where(eq(withdrawals.transactionId, 2));
    expect(withdrawal!.rateNumerator! * 100_000_000n).toBe(228n * withdrawal!.rateDenominator!);
    expect(withdrawal!.midRateNumerator! * 100_000_000n).toBe(230n * withdrawal!.midRateDenominator!);
    const [unusable] = await handle.db.select().from(invoices).where(eq(invoices.transactionId, 7));
    expect([unusable!.rateNumerator, unusable!.rateDenominator]).toEqual([null, null]);
  });

  it("locks credited payments whole, and a seen one only within what remains due while the lock lives", async () => {
    const rows = await handle.db.select().from(deposits).orderBy(asc(deposits.id));
    const fifty = storedRate(5_000_000_000_000n, 100_000_000n);
    const locks = rows.map((d) => ({
      invoice: d.transactionId,
      locked: formatAmount(d.lockedAmount),
      rate: storedRate(d.lockedRateNumerator, d.lockedRateDenominator),
      rest: [d.rateNumerator, d.rateDenominator],
    }));
    const none = { locked: "0.00000000", rate: null, rest: [null, null] };
    expect(locks).toEqual([
      { invoice: 3, locked: "0.00050000", rate: fifty, rest: [null, null] }, // credited
      { invoice: 3, locked: "0.00100000", rate: fifty, rest: [null, null] },
      { invoice: 3, locked: "0.00050000", rate: fifty, rest: [null, null] }, // the rest: the rate of its credit
      { invoice: 3, ...none }, // beyond the amount due
      { invoice: 4, ...none }, // the lock had expired
      { invoice: 5, locked: "0.00100000", rate: fifty, rest: [null, null] },
      { invoice: 6, ...none }, // the invoice had closed
      { invoice: 7, ...none }, // no usable rate
    ]);
  });
});
