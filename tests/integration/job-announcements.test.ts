import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "@/lib/db/transaction";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { JOBS_CHANNEL, jobAnnouncements } from "@/lib/jobs/job-announcements";
import { startJobRunner } from "@/lib/jobs/runner";
import { type ChannelListener, listenOnChannel } from "@/lib/notify/listen-on-channel";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";
import { waitUntil } from "../support/wait";

describe(`new jobs wake the runners, and due times are awaited, on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Announcing");
  });
  afterAll(() => database.drop());

  it("announces a job on kassa_jobs once its transaction commits, from enqueueJob and from a one-statement write, and never a rolled-back one", async () => {
    let heard = 0;
    const listener: ChannelListener = await listenOnChannel(database.driver, JOBS_CHANNEL, {
      onMessage: () => heard++,
      onGap: () => {},
    });
    try {
      await inTransaction(database.db, async (tx) => {
        await enqueueJob(tx, { queue: "test.announce" });
        await enqueueJob(tx, { queue: "test.announce" });
        expect(heard).toBe(0);
      });
      await waitUntil(() => heard === 1, { what: "the committed jobs announced" });

      await inTransaction(database.db, async (tx) => {
        await enqueueJob(tx, { queue: "test.announce" });
        throw new Error("rolled back");
      }).catch(() => {});
      // Announcements arrive in commit order: had the rolled-back job been announced, it would come first.
      await createFixedInvoice(database.db, merchantId, "BTC");
      await waitUntil(() => heard >= 2, { what: "the invoice's expiry job announced" });
      expect(heard).toBe(2);
    } finally {
      await listener.stop();
    }
  });

  it("a runner that looks on its own only every minute starts a job when it is due, and one queued while it sleeps at once", async () => {
    const ran: string[] = [];
    const runner = startJobRunner({
      db: database.db,
      handlers: {
        "test.wake": async (job) => {
          ran.push(String(job.payload.name));
        },
      },
      idleMs: 60_000,
      wakeOn: jobAnnouncements(database.driver),
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
