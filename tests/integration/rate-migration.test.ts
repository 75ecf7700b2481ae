import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncCurrencies } from "@/lib/currencies/sync-currencies";
import { type DatabaseHandle, openDatabase } from "@/lib/db/client";
import { MIGRATIONS_FOLDER, runMigrations } from "@/lib/db/migrate";
import { invoices, withdrawals } from "@/lib/db/schema";
import { storedRate } from "@/lib/rates/rate";

/**
 * Migration 0008 on a database that already holds rows with 8-digit rates: each becomes exactly
 * value / 10^8 (the SQL is the same on both engines; this runs it on an embedded database).
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
  });
  afterAll(async () => {
    await handle.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it("turns each stored 8-digit rate into the same exact ratio", async () => {
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

    await runMigrations(handle);

    const [invoice] = await handle.db.select().from(invoices).where(eq(invoices.transactionId, 1));
    expect(storedRate(invoice!.rateNumerator, invoice!.rateDenominator)).toEqual(
      storedRate(5_988_425_925_925n, 100_000_000n),
    );
    expect(invoice!.rateNumerator! * 100_000_000n).toBe(5_988_425_925_925n * invoice!.rateDenominator!);
    const [withdrawal] = await handle.db.select().from(withdrawals).where(eq(withdrawals.transactionId, 2));
    expect(withdrawal!.rateNumerator! * 100_000_000n).toBe(228n * withdrawal!.rateDenominator!);
    expect(withdrawal!.midRateNumerator! * 100_000_000n).toBe(230n * withdrawal!.midRateDenominator!);
  });
});
