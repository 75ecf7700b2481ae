import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { invoiceExpiryJob } from "@/lib/invoices/invoice-jobs";
import { type Change, changeSql, recordChange, THIS_ID } from "@/lib/transactions/record-change";
import { approvalExpiryJob, broadcastJob } from "@/lib/withdrawals/withdrawal-jobs";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createTestMerchant } from "../support/merchants";

/**
 * A change is written by recordChange from TypeScript and by changeSql inside the one-statement
 * writes (create-withdrawal.ts, create-invoice.ts). The two must write the same rows: each case is
 * written both ways, for two transaction ids, and the rows are compared with the id blanked out.
 */
describe(`recordChange and changeSql write the same rows on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  let userId: number;
  let nextId = 700_000_001;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Record Change Shop");
    const [user] = await queryRows<{ id: string | number }>(
      database.db,
      sql`select id from users where merchant_id = ${merchantId} limit 1`,
    );
    userId = Number(user!.id);
  });
  afterAll(() => database.drop());

  /** Every row the change wrote for transaction `id`, as text with the id replaced by ID. */
  async function rowsOf(id: number) {
    const events = await queryRows<Record<string, unknown>>(
      database.db,
      sql`select transaction_id, merchant_id, from_status, to_status, reason
          from transaction_events where transaction_id = ${id} order by id`,
    );
    const jobs = await queryRows<Record<string, unknown>>(
      database.db,
      sql`select queue, payload, status, run_at, attempts, max_attempts, dedupe_key
          from jobs where dedupe_key like ${`%:${id}%`} or payload::text like ${`%${id}%`} order by id`,
    );
    const audits = await queryRows<Record<string, unknown>>(
      database.db,
      sql`select merchant_id, actor, user_id, address, action, detail
          from audit_entries where detail like ${`%${id}%`} order by id`,
    );
    const text = JSON.stringify({ events, jobs, audits }, (_key, value) =>
      value instanceof Date ? value.toISOString() : typeof value === "bigint" ? String(value) : value,
    );
    return { text: text.replaceAll(String(id), "ID"), counts: [events.length, jobs.length, audits.length] };
  }

  async function writeBothWays(change: Change) {
    const bySql = nextId++;
    const byTypeScript = nextId++;
    const { ctes, written } = changeSql("created", change);
    const [row] = await queryRows<{ written: string | number }>(
      database.db,
      sql`with created as (select ${bySql}::bigint as id), ${ctes} select (${written}) as written`,
    );
    await inTransaction(database.db, (tx) => recordChange(tx, byTypeScript, change));
    return {
      bySql: await rowsOf(bySql),
      byTypeScript: await rowsOf(byTypeScript),
      written: Number(row!.written),
    };
  }

  const at = new Date("2031-05-06T07:08:09.123Z");
  const cases: [string, () => Change][] = [
    ["a first status with no job", () => ({ merchantId, from: null, to: "processing" })],
    [
      "an accepted withdrawal: its broadcast job, audited for a user",
      () => ({
        merchantId,
        from: null,
        to: "processing",
        reason: "accepted",
        jobs: [broadcastJob],
        audit: {
          source: { actor: { kind: "user", userId, email: "owner@example.com" }, address: "203.0.113.9" },
          action: "payout_created",
          detail: ["withdrawal ", THIS_ID, ": 0.01 BTC to bc1q…"],
        },
      }),
    ],
    [
      "a withdrawal over a limit: its approval's expiry, audited for an API key",
      () => ({
        merchantId,
        from: null,
        to: "pending",
        reason: "over a withdrawal limit: waits for an approver",
        jobs: [approvalExpiryJob(at)],
        audit: {
          source: { actor: { kind: "api_key", key: "pk_test" } },
          action: "payout_created",
          detail: ["withdrawal ", THIS_ID, ": 5 ETH to 0xabc"],
        },
      }),
    ],
    [
      "a timer invoice: its expiry, and a re-check keyed by why",
      () => ({
        merchantId,
        from: null,
        to: "pending",
        reason: "timer_started",
        jobs: [invoiceExpiryJob(at), invoiceExpiryJob(at, "watcher-behind")],
      }),
    ],
    [
      "a same-status event with a job whose payload mixes values",
      () => ({
        merchantId,
        from: "pending",
        to: "pending",
        reason: "currency_switched",
        jobs: [{ queue: "test.mixed", payload: { id: THIS_ID, seconds: 900, code: "LTC" }, runAt: at }],
      }),
    ],
  ];

  for (const [name, change] of cases) {
    it(name, async () => {
      const given = change();
      const { bySql, byTypeScript, written } = await writeBothWays(given);
      const expected = [1, given.jobs?.length ?? 0, given.audit ? 1 : 0];
      expect(bySql.counts).toEqual(expected);
      expect(byTypeScript.counts).toEqual(expected);
      expect(written).toBe(expected.reduce((sum, count) => sum + count, 0));
      // Jobs queued for "now" differ by the moment each was written; every other column is equal.
      const withoutNow = (text: string) =>
        given.jobs?.every((job) => job.runAt) ? text : text.replace(/"run_at":"[^"]*"/g, '"run_at":"now"');
      expect(withoutNow(bySql.text)).toBe(withoutNow(byTypeScript.text));
    });
  }

  it("queues a job once while one with its key is queued, both ways", async () => {
    const id = nextId++;
    const { ctes } = changeSql("created", { merchantId, from: null, to: "processing", jobs: [broadcastJob] });
    await recordChange(database.db, id, { merchantId, from: null, to: "processing", jobs: [broadcastJob] });
    await queryRows(database.db, sql`with created as (select ${id}::bigint as id), ${ctes} select 1`);
    const queued = await queryRows<{ dedupe_key: string }>(
      database.db,
      sql`select dedupe_key from jobs where dedupe_key = ${`withdrawal-broadcast:${id}`}`,
    );
    expect(queued).toHaveLength(1);
  });
});
