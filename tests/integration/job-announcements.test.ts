import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { JOBS_CHANNEL, runnerWaking } from "@/lib/jobs/job-announcements";
import { startJobRunner } from "@/lib/jobs/runner";
import { listenOnChannel } from "@/lib/notify/listen-on-channel";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";
import { waitUntil } from "../support/wait";

describe(`how the job runners learn of new jobs, on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Announcing");
  });
  afterAll(() => database.drop());

  /** What was heard on kassa_jobs while `work` ran, up to a marker sent after it (announcements come in commit order). */
  async function heardDuring(work: () => Promise<unknown>): Promise<string[]> {
    const heard: string[] = [];
    const listener = await listenOnChannel(database.driver, JOBS_CHANNEL, {
      onMessage: (payload) => heard.push(payload),
      onGap: () => {},
    });
    try {
      await work();
      await queryRows(database.db, sql`select pg_notify(${JOBS_CHANNEL}, 'marker')`);
      await waitUntil(() => heard.includes("marker"), { what: "the marker heard" });
      return heard.slice(0, heard.indexOf("marker"));
    } finally {
      await listener.stop();
    }
  }

  if (testDriver === "pglite")
    it("announces a job once its transaction commits, from enqueueJob and from a one-statement write, and never a rolled-back one", async () => {
      const heard = await heardDuring(async () => {
        await inTransaction(database.db, async (tx) => {
          await enqueueJob(tx, { queue: "test.announce" });
          await enqueueJob(tx, { queue: "test.announce" });
        });
        await inTransaction(database.db, async (tx) => {
          await enqueueJob(tx, { queue: "test.announce" });
          throw new Error("rolled back");
        }).catch(() => {});
        await createFixedInvoice(database.db, merchantId, "BTC");
      });
      // One for the two jobs of the first transaction, none for the rolled-back one, one for the invoice's expiry job.
      expect(heard).toEqual(["", ""]);
    });
  else
    it("announces nothing on PostgreSQL, where a notifying commit would hold a database-wide lock until it is flushed", async () => {
      const heard = await heardDuring(async () => {
        await enqueueJob(database.db, { queue: "test.announce" });
        await createFixedInvoice(database.db, merchantId, "BTC");
      });
      expect(heard).toEqual([]);
    });

  it(`a runner ${testDriver === "pglite" ? "that looks on its own only every minute" : "polling"} starts a job when it is due, and one queued while it waits at once`, async () => {
    const waking = runnerWaking(database.driver);
    const ran: string[] = [];
    const runner = startJobRunner({
      db: database.db,
      handlers: {
        "test.wake": async (job) => {
          ran.push(String(job.payload.name));
        },
      },
      ...waking,
      // On PGlite only an announcement or the due time can wake it in time.
      idleMs: waking.wakeOn ? 60_000 : waking.idleMs,
      log: () => {},
    });
    try {
      await enqueueJob(database.db, {
        queue: "test.wake",
        payload: { name: "due in a second" },
        runAt: new Date(Date.now() + 1_000),
      });
      await waitUntil(() => ran.includes("due in a second"), {
        what: "the job run when due",
        timeoutMs: 15_000,
      });
      await enqueueJob(database.db, { queue: "test.wake", payload: { name: "queued while idle" } });
      await waitUntil(() => ran.includes("queued while idle"), {
        what: "the new job run",
        timeoutMs: 15_000,
      });
      expect(ran).toEqual(["due in a second", "queued while idle"]);
    } finally {
      await runner.stop();
    }
  });
});
