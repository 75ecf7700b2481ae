-- A payout sent as the refund an invoice owes its customer (issue 19): the invoice page lists the
-- payouts that point at it and stops offering "Refund owed" once they cover what is owed; creating
-- one checks, under the invoice's row lock, that refunds never exceed it.
ALTER TABLE "withdrawals" ADD COLUMN "refund_of" bigint;
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_refund_of_transactions_id_fk" FOREIGN KEY ("refund_of") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "withdrawals_refund_of_idx" ON "withdrawals" USING btree ("refund_of") WHERE "withdrawals"."refund_of" is not null;
