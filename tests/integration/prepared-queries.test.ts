import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepared } from "@/lib/db/prepared";
import { merchants } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createTestMerchant } from "../support/merchants";

/**
 * Queries built once per database handle (lib/db/prepared.ts): each handle builds a query once and runs
 * it with whatever values it is given; a transaction builds its own; a reopened database builds again.
 */
describe(`prepared queries on ${testDriver}`, () => {
  let database: TestDatabase;
  let ids: number[];

  beforeAll(async () => {
    database = await createTestDatabase({ isPersistent: true });
    ids = [
      await createTestMerchant(database, "Prepared One"),
      await createTestMerchant(database, "Prepared Two"),
    ];
  });
  afterAll(async () => {
    await database.drop();
  });

  let builds = 0;
  const nameOf = async (db: Parameters<typeof prepared>[0], id: number) => {
    const query = prepared(db, "test_merchant_name", (db, name) => {
      builds++;
      return db
        .select({ name: merchants.name })
        .from(merchants)
        .where(eq(merchants.id, sql.placeholder("id")))
        .prepare(name);
    });
    const [row] = await query.execute({ id });
    return row?.name;
  };

  it("builds once per handle and binds each call's values", async () => {
    builds = 0;
    const names = [];
    for (let i = 0; i < 6; i++) names.push(await nameOf(database.db, ids[i % 2]!));
    expect(names).toEqual([
      "Prepared One",
      "Prepared Two",
      "Prepared One",
      "Prepared Two",
      "Prepared One",
      "Prepared Two",
    ]);
    expect(await nameOf(database.db, 2_000_000_000)).toBeUndefined();
    expect(builds).toBe(1);
  });

  it("builds a transaction's own, which sees the transaction's writes", async () => {
    builds = 0;
    await nameOf(database.db, ids[0]!);
    const seen = await inTransaction(database.db, async (tx) => {
      await tx.update(merchants).set({ name: "Renamed in transaction" }).where(eq(merchants.id, ids[0]!));
      const inside = await nameOf(tx, ids[0]!);
      throw Object.assign(new Error("roll back"), { inside });
    }).catch((error: { inside?: string }) => error.inside);
    expect(seen).toBe("Renamed in transaction");
    // Rolled back: the handle's own query reads the committed name.
    expect(await nameOf(database.db, ids[0]!)).toBe("Prepared One");
    expect(builds).toBe(1);
  });

  it("refuses a second, different query under a name already used", async () => {
    // A transaction is a new executor, so the name's query is built there, and checked.
    const other = inTransaction(database.db, async (tx) =>
      prepared(tx, "test_merchant_name", (db, name) =>
        db.select({ id: merchants.id }).from(merchants).prepare(name),
      ),
    );
    await expect(other).rejects.toThrow(
      'two different queries are prepared under the name "test_merchant_name"',
    );
  });

  it("builds again for a reopened database", async () => {
    database = await database.reopen();
    builds = 0;
    expect(await nameOf(database.db, ids[1]!)).toBe("Prepared Two");
    expect(builds).toBe(1);
  });
});
