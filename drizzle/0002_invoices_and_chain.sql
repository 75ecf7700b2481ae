CREATE TABLE "address_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"next_index" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_tips" (
	"currency" text PRIMARY KEY NOT NULL,
	"height" integer DEFAULT 0 NOT NULL,
	"mined_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"currency" text NOT NULL,
	"txid" text NOT NULL,
	"address" text NOT NULL,
	"tag" text DEFAULT '' NOT NULL,
	"amount" numeric(38, 8) NOT NULL,
	"direction" text NOT NULL,
	"block_height" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_addresses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" bigint NOT NULL,
	"currency" text NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"tag" text DEFAULT '' NOT NULL,
	"derivation_path" text NOT NULL,
	"kind" text NOT NULL,
	"invoice_id" bigint,
	"foreign_id" text,
	"convert_to" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" bigint NOT NULL,
	"deposit_address_id" bigint NOT NULL,
	"transaction_id" bigint NOT NULL,
	"chain_transaction_id" bigint NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(38, 8) NOT NULL,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'seen' NOT NULL,
	"is_late" boolean DEFAULT false NOT NULL,
	"credited_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rates" (
	"currency" text PRIMARY KEY NOT NULL,
	"usd_price" numeric(38, 8) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "emails" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" bigint,
	"transaction_id" bigint,
	"kind" text NOT NULL,
	"recipient" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"transaction_id" bigint PRIMARY KEY NOT NULL,
	"merchant_id" bigint NOT NULL,
	"token" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"type" text NOT NULL,
	"has_timer" boolean NOT NULL,
	"url_success" text NOT NULL,
	"url_failed" text NOT NULL,
	"email_user" text NOT NULL,
	"sender_type" text NOT NULL,
	"sender_data" jsonb NOT NULL,
	"sender_currency" text,
	"sender_amount" numeric(38, 8),
	"rate" numeric(38, 8),
	"spread_ppm" integer,
	"deposit_address_id" bigint,
	"fixed_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"paid_amount" numeric(38, 8) DEFAULT 0 NOT NULL,
	"confirmed_amount" numeric(38, 8) DEFAULT 0 NOT NULL,
	"credited_amount" numeric(38, 8) DEFAULT 0 NOT NULL,
	"status_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transaction_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transaction_id" bigint NOT NULL,
	"merchant_id" bigint NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 12 NOT NULL,
	"locked_until" timestamp with time zone,
	"locked_by" text,
	"last_error" text,
	"dedupe_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "chain_tips" ADD CONSTRAINT "chain_tips_currency_currencies_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_transactions" ADD CONSTRAINT "chain_transactions_currency_currencies_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_currency_currencies_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_convert_to_currencies_code_fk" FOREIGN KEY ("convert_to") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_deposit_address_id_deposit_addresses_id_fk" FOREIGN KEY ("deposit_address_id") REFERENCES "public"."deposit_addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_chain_transaction_id_chain_transactions_id_fk" FOREIGN KEY ("chain_transaction_id") REFERENCES "public"."chain_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rates" ADD CONSTRAINT "rates_currency_currencies_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_sender_currency_currencies_code_fk" FOREIGN KEY ("sender_currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_events" ADD CONSTRAINT "transaction_events_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chain_transactions_txid_key" ON "chain_transactions" USING btree ("currency","txid");--> statement-breakpoint
CREATE INDEX "chain_transactions_mempool_idx" ON "chain_transactions" USING btree ("currency") WHERE "chain_transactions"."block_height" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_address_key" ON "deposit_addresses" USING btree ("currency","address","tag");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_permanent_key" ON "deposit_addresses" USING btree ("merchant_id","currency","foreign_id") WHERE "deposit_addresses"."kind" = 'permanent';--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_chain_transaction_key" ON "deposits" USING btree ("chain_transaction_id");--> statement-breakpoint
CREATE INDEX "deposits_transaction_idx" ON "deposits" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "deposits_pending_idx" ON "deposits" USING btree ("currency") WHERE "deposits"."status" = 'seen';--> statement-breakpoint
CREATE INDEX "emails_merchant_idx" ON "emails" USING btree ("merchant_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_token_key" ON "invoices" USING btree ("token");--> statement-breakpoint
CREATE INDEX "invoices_merchant_idx" ON "invoices" USING btree ("merchant_id");--> statement-breakpoint
CREATE INDEX "transaction_events_transaction_idx" ON "transaction_events" USING btree ("transaction_id","id");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."status" = 'queued';--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_dedupe_key" ON "jobs" USING btree ("dedupe_key") WHERE "jobs"."status" = 'queued' and "jobs"."dedupe_key" is not null;