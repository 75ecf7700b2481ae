-- Bulk payouts: many withdrawals sent together from one file or one API request. The batch's
-- reference is unique per merchant (a repeat answers the first batch and sends nothing); each
-- withdrawal of a batch names it and its row, once per row.
CREATE TABLE "payout_batches" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" bigint NOT NULL,
	"reference" text NOT NULL,
	"content_hash" text NOT NULL,
	"row_count" integer NOT NULL,
	"needs_approval" boolean NOT NULL,
	"created_by_user_id" bigint,
	"api_key_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_batches_rows" CHECK ("payout_batches"."row_count" > 0)
);
--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_batches_reference_idx" ON "payout_batches" USING btree ("merchant_id","reference");--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "batch_id" bigint;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "batch_row" integer;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_batch_row_idx" ON "withdrawals" USING btree ("batch_id","batch_row") WHERE "withdrawals"."batch_id" is not null;
