-- Jobs are fenced (lib/jobs/runner.ts): each claim mints a lease token, and only the holder of the
-- current token may extend the lease or record the outcome, so a worker that outlived its lease
-- changes nothing once another has claimed the job.
ALTER TABLE "jobs" ADD COLUMN "lease_token" uuid;--> statement-breakpoint
-- Finished jobs are purged after KASSA_JOB_RETENTION_DAYS, oldest first, in bounded batches.
CREATE INDEX "jobs_finished_idx" ON "jobs" USING btree ("finished_at") WHERE "jobs"."status" in ('done', 'failed');
