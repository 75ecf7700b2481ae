import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "@/lib/db/schema";
import { enqueueJob, JOB_MAX_ATTEMPTS } from "@/lib/jobs/enqueue-job";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";

describe(`enqueueJob on ${testDriver}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  const queued = (queue: string) =>
    database.db.select().from(jobs).where(eq(jobs.queue, queue)).orderBy(asc(jobs.id));

  it("stores the job as given: payload, run time, attempts", async () => {
    const runAt = new Date("2031-01-02T03:04:05.678Z");
    await enqueueJob(database.db, {
      queue: "test.exact",
      payload: { id: 7, text: "123", nested: { list: [1, "a"] } },
      runAt,
      maxAttempts: 3,
    });
    await enqueueJob(database.db, { queue: "test.exact" });
    const [given, defaults] = await queued("test.exact");
    expect(given).toMatchObject({
      status: "queued",
      payload: { id: 7, text: "123", nested: { list: [1, "a"] } },
      runAt,
      maxAttempts: 3,
      attempts: 0,
      dedupeKey: null,
    });
    expect(defaults).toMatchObject({ payload: {}, maxAttempts: JOB_MAX_ATTEMPTS, dedupeKey: null });
  });

  it("queues one job per dedupe key while it waits, and a new one once it has finished", async () => {
    await enqueueJob(database.db, { queue: "test.dedupe", payload: { n: 1 }, dedupeKey: "k" });
    await enqueueJob(database.db, { queue: "test.dedupe", payload: { n: 2 }, dedupeKey: "k" });
    expect((await queued("test.dedupe")).map((job) => job.payload)).toEqual([{ n: 1 }]);
    await database.db
      .update(jobs)
      .set({ status: "done", finishedAt: new Date() })
      .where(eq(jobs.dedupeKey, "k"));
    await enqueueJob(database.db, { queue: "test.dedupe", payload: { n: 3 }, dedupeKey: "k" });
    expect((await queued("test.dedupe")).map((job) => [job.status, job.payload])).toEqual([
      ["done", { n: 1 }],
      ["queued", { n: 3 }],
    ]);
  });
});
