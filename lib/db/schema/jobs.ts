import { sql } from "drizzle-orm";
import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/**
 * The durable job queue (transactional outbox, DESIGN.md section 1): a job is inserted in the same
 * transaction as the state change that causes it, and claimed with FOR UPDATE SKIP LOCKED, so no
 * job is lost across a crash and none is claimed by two workers at once. Each claim mints a
 * `lease_token`: only its holder may extend the lease or record the outcome (lib/jobs/runner.ts).
 */
export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    queue: text("queue").notNull(),
    payload: jsonb("payload").notNull().default({}),
    status: text("status", { enum: ["queued", "done", "failed"] })
      .notNull()
      .default("queued"),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(12),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lockedBy: text("locked_by"),
    /** Minted by each claim; names the current lease and attempt. Outcomes are written only with it. */
    leaseToken: uuid("lease_token"),
    lastError: text("last_error"),
    /** At most one queued job per key (for example one expiry per invoice). */
    dedupeKey: text("dedupe_key"),
    createdAt: createdAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("jobs_due_idx").on(t.runAt).where(sql`${t.status} = 'queued'`),
    uniqueIndex("jobs_dedupe_key")
      .on(t.dedupeKey)
      .where(sql`${t.status} = 'queued' and ${t.dedupeKey} is not null`),
    index("jobs_finished_idx").on(t.finishedAt).where(sql`${t.status} in ('done', 'failed')`),
  ],
);
