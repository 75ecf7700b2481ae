-- Jobs are fenced (lib/jobs/runner.ts): each claim mints a lease token, and only the holder of the
-- current token may extend the lease or record the outcome, so a worker that outlived its lease
-- changes nothing once another has claimed the job.
ALTER TABLE "jobs" ADD COLUMN "lease_token" uuid;--> statement-breakpoint
-- Finished jobs are purged after KASSA_JOB_RETENTION_DAYS, oldest first, in bounded batches.
CREATE INDEX "jobs_finished_idx" ON "jobs" USING btree ("finished_at") WHERE "jobs"."status" in ('done', 'failed');--> statement-breakpoint
-- A withdrawal is claimed for sending (status `sending`) in its own committed transaction before
-- the network call; claimed_at is when. A claim without a txid is settled by reconciliation.
ALTER TABLE "withdrawals" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
-- Claims not settled yet (neither a txid nor an error): what the reconciliation sweep reads.
CREATE INDEX "withdrawals_open_claims_idx" ON "withdrawals" USING btree ("claimed_at") WHERE "withdrawals"."txid" is null and "withdrawals"."error" is null;--> statement-breakpoint
-- Withdrawals sent before this version stayed `processing` until confirmed; they are past the claim.
UPDATE "withdrawals" SET "claimed_at" = coalesce("broadcast_at", "created_at")
  WHERE "txid" IS NOT NULL AND "claimed_at" IS NULL;--> statement-breakpoint
INSERT INTO "transaction_events" ("transaction_id", "merchant_id", "from_status", "to_status", "reason")
  SELECT t."id", t."merchant_id", 'processing', 'sending', 'sent before the upgrade'
  FROM "transactions" t JOIN "withdrawals" w ON w."transaction_id" = t."id"
  WHERE t."status" = 'processing' AND w."txid" IS NOT NULL;--> statement-breakpoint
UPDATE "transactions" t SET "status" = 'sending', "updated_at" = now()
  FROM "withdrawals" w
  WHERE w."transaction_id" = t."id" AND t."status" = 'processing' AND w."txid" IS NOT NULL;
