import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mineSandboxBlocks } from "@/lib/chain/sandbox/mine-blocks";
import { loadConfig } from "@/lib/config";
import { queryRows } from "@/lib/db/client";
import { deposits } from "@/lib/db/schema";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { purgeFinishedJobs } from "@/lib/jobs/purge-jobs";
import { claimJobs, type Handlers, runDueJobs, runJob, startJobRunner } from "@/lib/jobs/runner";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { parseDecimal } from "@/lib/money";
import { withdrawalRequest } from "@/lib/schemas/withdrawals";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";
import { type TestClock, testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, handlers, pay, pricing } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant } from "../support/merchants";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

type JobRow = {
  status: string;
  attempts: number;
  locked_by: string | null;
  last_error: string | null;
  run_at: string;
  finished_at: string | null;
};

describe(`a fenced job runner on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  const jobRow = async (id: number) =>
    (
      await queryRows<JobRow>(
        database.db,
        sql`select status, attempts, locked_by, last_error, run_at::text, finished_at::text from jobs where id = ${id}`,
      )
    )[0]!;
  const claim = (queue: string, workerId: string, clock: TestClock) =>
    claimJobs({ db: database.db, queues: [queue], limit: 5, workerId, leaseSeconds: 60, clock });

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Runner");
  });
  afterAll(() => database.drop());

  it("keeps a worker that outlived its lease from overwriting the outcome of the worker that ran the job after it", async () => {
    const clock = testClock();
    await enqueueJob(database.db, { queue: "test.outlived" });
    const [first] = await claim("test.outlived", "worker-a", clock);
    const stalled = deferred();
    const toldToStop = deferred();
    let runsOfA = 0;
    const logOfA: string[] = [];
    const handlersOfA: Handlers = {
      "test.outlived": async (_job, _db, { signal }) => {
        runsOfA++;
        signal.addEventListener("abort", () => toldToStop.resolve());
        await stalled.promise; // an SMTP server or a chain node that does not answer
      },
    };
    const runningA = runJob(database.db, handlersOfA, first!, {
      leaseSeconds: 60,
      heartbeatMs: 20,
      clock,
      log: (message) => logOfA.push(message),
    });

    // A's lease runs out while it waits: between two heartbeats, the clock passes the lease's end.
    clock.advance(61);
    await toldToStop.promise; // its heartbeat found the lease gone and aborted the handler's signal
    const [second] = await claim("test.outlived", "worker-b", clock);
    expect(second).toMatchObject({ id: first!.id, attempts: 2 });
    let runsOfB = 0;
    await runJob(database.db, { "test.outlived": async () => void runsOfB++ }, second!, {
      clock,
      log: () => {},
    });
    const completedByB = await jobRow(first!.id);
    expect(completedByB).toMatchObject({
      status: "done",
      attempts: 2,
      locked_by: "worker-b",
      last_error: null,
    });

    // A finishes late: its completion changes nothing, and says so.
    stalled.resolve();
    await runningA;
    expect(runsOfA).toBe(1);
    expect(runsOfB).toBe(1);
    expect(await jobRow(first!.id)).toEqual(completedByB);
    expect(logOfA.join("\n")).toMatch(/lost its lease/);
    expect(logOfA.join("\n")).toMatch(
      /another worker holds the job now; this attempt's outcome \(done\) is not recorded/,
    );
  });

  it("does not let a stale worker's failure reschedule a job another worker finished", async () => {
    const clock = testClock();
    await enqueueJob(database.db, { queue: "test.stale-failure", maxAttempts: 5 });
    const [first] = await claim("test.stale-failure", "worker-a", clock);
    expect(await claim("test.stale-failure", "worker-b", clock)).toEqual([]); // A holds it
    clock.advance(61); // A's lease ran out
    const [second] = await claim("test.stale-failure", "worker-b", clock);
    await runJob(database.db, { "test.stale-failure": async () => {} }, second!, { clock, log: () => {} });
    const completedByB = await jobRow(first!.id);
    // A's attempt throws after B completed: no retry is scheduled, no error recorded.
    await runJob(
      database.db,
      {
        "test.stale-failure": async () => {
          throw new Error("SMTP timeout");
        },
      },
      first!,
      { clock, log: () => {} },
    );
    expect(await jobRow(first!.id)).toEqual(completedByB);
  });

  it("renews the lease of a long handler, so no second worker claims its job", async () => {
    const clock = testClock();
    await enqueueJob(database.db, { queue: "test.long" });
    const [job] = await claim("test.long", "worker-a", clock);
    // Most of the lease has passed while the handler ran: fifteen seconds are left.
    clock.advance(45);
    const finish = deferred();
    let signal: AbortSignal | undefined;
    const running = runJob(
      database.db,
      {
        "test.long": async (_job, _db, context) => {
          signal = context.signal;
          await finish.promise;
        },
      },
      job!,
      { leaseSeconds: 60, heartbeatMs: 20, clock, log: () => {} },
    );
    const leaseLeft = async () => {
      const [row] = await queryRows<{ locked_until: string | Date }>(
        database.db,
        sql`select locked_until from jobs where id = ${job!.id}`,
      );
      return (new Date(row!.locked_until).getTime() - clock.now().getTime()) / 1000;
    };
    await expect.poll(leaseLeft, { timeout: 10_000, interval: 20 }).toBeGreaterThan(30);
    clock.advance(30); // past the lease the claim took: only the renewal keeps the job
    expect(await claim("test.long", "worker-b", clock)).toEqual([]);
    finish.resolve();
    await running;
    expect(signal?.aborted).toBe(false);
    expect(await jobRow(job!.id)).toMatchObject({ status: "done", attempts: 1, locked_by: "worker-a" });
  });

  it("stops renewing a hung handler's lease after the longest run, and tells it to stop", async () => {
    await enqueueJob(database.db, { queue: "test.hung" });
    const [job] = await claim("test.hung", "worker-a", testClock());
    const logs: string[] = [];
    await runJob(
      database.db,
      {
        // A network call that never answers, except by giving up when told to.
        "test.hung": (_job, _db, context) =>
          new Promise<void>((_resolve, reject) => {
            context.signal.addEventListener("abort", () => reject(context.signal.reason), { once: true });
          }),
      },
      job!,
      { leaseSeconds: 60, heartbeatMs: 10, maxRunMs: 30, log: (message) => logs.push(message) },
    );
    expect(logs.join("\n")).toMatch(/ran longer than 0.03 s/);
    const row = await jobRow(job!.id);
    // Retried later like any failure, here or by another worker.
    expect(row).toMatchObject({ status: "queued", attempts: 1 });
    expect(row.last_error).toMatch(/ran longer than/);
  });

  it("tells running handlers to stop when the runner shuts down, so stopping never waits on them", async () => {
    await enqueueJob(database.db, { queue: "test.shutdown" });
    const started = deferred();
    const runner = startJobRunner({
      db: database.db,
      handlers: {
        "test.shutdown": (_job, _db, context) =>
          new Promise<void>((_resolve, reject) => {
            started.resolve();
            context.signal.addEventListener("abort", () => reject(context.signal.reason), { once: true });
          }),
      },
      idleMs: 10,
      log: () => {},
    });
    await started.promise;
    await runner.stop();
    const [row] = await queryRows<{ status: string; last_error: string | null }>(
      database.db,
      sql`select status, last_error from jobs where queue = 'test.shutdown'`,
    );
    expect(row).toMatchObject({ status: "queued" });
    expect(row!.last_error).toMatch(/shutting down/);
  });

  it("runs as many jobs at once as its concurrency without warning of a listener leak", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    try {
      for (let i = 0; i < 16; i++) await enqueueJob(database.db, { queue: "test.wide" });
      let running = 0;
      const allRunning = deferred();
      const finish = deferred();
      const runner = startJobRunner({
        db: database.db,
        handlers: {
          "test.wide": async () => {
            if (++running === 16) allRunning.resolve();
            await finish.promise;
          },
        },
        concurrency: 16,
        idleMs: 10,
        log: () => {},
      });
      await allRunning.promise;
      finish.resolve();
      await runner.stop();
      // Node emits its warnings on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(running).toBe(16);
      expect(warnings.filter((w) => w.startsWith("MaxListenersExceededWarning"))).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("purges only finished jobs older than the retention period, in bounded batches", async () => {
    const insert = (status: string, finishedDaysAgo: number | null, queue = "test.purge") =>
      queryRows<{ id: string }>(
        database.db,
        sql`insert into jobs (queue, status, run_at, finished_at)
            values (${queue}, ${status}, now() - interval '30 days',
                    ${finishedDaysAgo === null ? null : sql`now() - make_interval(days => ${finishedDaysAgo})`})
            returning id::text`,
      );
    const kept = [
      ...(await insert("done", 6)),
      ...(await insert("failed", 6)),
      ...(await insert("queued", null)), // queued for a month: never purged
    ].map((row) => Number(row.id));
    for (let i = 0; i < 5; i++) await insert(i % 2 ? "done" : "failed", 8 + i);
    const remaining = async () =>
      (
        await queryRows<{ id: string }>(
          database.db,
          sql`select id::text from jobs where queue = 'test.purge' order by id`,
        )
      ).map((row) => Number(row.id));

    expect(await purgeFinishedJobs(database.db, { retentionDays: 7, batchSize: 2 })).toBe(2);
    expect(await purgeFinishedJobs(database.db, { retentionDays: 7, batchSize: 2 })).toBe(2);
    expect(await purgeFinishedJobs(database.db, { retentionDays: 7, batchSize: 2 })).toBe(1);
    expect(await purgeFinishedJobs(database.db, { retentionDays: 7, batchSize: 2 })).toBe(0);
    expect(await remaining()).toEqual(kept);

    // The runner purges by itself, with the retention it is given.
    await insert("done", 9);
    const runner = startJobRunner({ db: database.db, handlers: {}, retentionDays: 7, log: () => {} });
    try {
      await expect.poll(remaining, { timeout: 10_000, interval: 50 }).toEqual(kept);
    } finally {
      await runner.stop();
    }
  });

  it("reads KASSA_JOB_RETENTION_DAYS, 7 by default", () => {
    const env = (values: Record<string, string>) => ({ NODE_ENV: "test" as const, ...values });
    expect(loadConfig(env({})).jobRetentionDays).toBe(7);
    expect(loadConfig(env({ KASSA_JOB_RETENTION_DAYS: "30" })).jobRetentionDays).toBe(30);
    expect(() => loadConfig(env({ KASSA_JOB_RETENTION_DAYS: "0" }))).toThrow(/KASSA_JOB_RETENTION_DAYS/);
  });

  it("credits every other deposit and confirms withdrawals of a block when one deposit cannot be credited", async () => {
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "LTC",
      amount: parseDecimal("1"),
      isSandbox: true,
    });
    const withdrawal = await createWithdrawal(
      database.db,
      withdrawalInput(
        merchantId,
        withdrawalRequest.parse({
          currency: "LTC",
          amount: "0.1",
          address: "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh",
          foreign_id: "batch-payout",
          end_user_reference: "payee",
          sender_type: "legal",
          sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
          receiver_type: "self",
        }),
        pricing,
      ),
    );
    await runDueJobs(database.db, handlers); // the payout is broadcast
    const invoices: Awaited<ReturnType<typeof createFixedInvoice>>[] = [];
    for (let i = 0; i < 3; i++) {
      const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
      await pay(database.db, invoice, invoice.invoice.senderAmount!);
      invoices.push(invoice);
    }
    const [broken] = await database.db
      .select()
      .from(deposits)
      .where(eq(deposits.transactionId, invoices[0]!.id));
    // The database refuses to credit the first deposit of the batch (any per-item failure would do).
    await database.db.execute(
      sql.raw(`
      create function test_refuse_deposit() returns trigger as $$
      begin
        raise exception 'deposit % cannot be credited', new.id;
      end;
      $$ language plpgsql`),
    );
    await database.db.execute(
      sql.raw(`create trigger test_refuse_deposit before update of status on deposits
               for each row when (new.id = ${broken!.id} and new.status = 'credited')
               execute function test_refuse_deposit()`),
    );
    await mineSandboxBlocks(database.db, { currency: "LTC", count: 6 });
    const clock = testClock();
    await runDueJobs(database.db, handlers, { clock });

    const statuses = async () =>
      Promise.all(invoices.map(async (invoice) => (await loadInvoiceById(database.db, invoice.id))!.status));
    expect(await statuses()).toEqual(["processing", "confirmed", "confirmed"]);
    expect((await describeTransaction(database.db, withdrawal.id)).status).toBe("confirmed");
    const [scan] = await queryRows<{ status: string; last_error: string; later: boolean }>(
      database.db,
      sql`select status, last_error, run_at > now() as later from jobs where queue = 'chain.scan' and status = 'queued'`,
    );
    // The job failed, so it is retried, and says which deposit and why.
    expect(scan).toMatchObject({ status: "queued", later: true });
    expect(scan!.last_error).toContain(`deposit ${broken!.id}: `);
    expect(scan!.last_error).toContain(`deposit ${broken!.id} cannot be credited`);

    await database.db.execute(sql.raw("drop trigger test_refuse_deposit on deposits"));
    clock.advance(300); // the longest backoff
    await runDueJobs(database.db, handlers, { clock });
    expect(await statuses()).toEqual(["confirmed", "confirmed", "confirmed"]);
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });
});
